import type { firstZh } from './first.zh';

/**
 * The first tier of the catalogue in English (see first.zh.ts): loaded before the first render when
 * English is the stored choice, and on switching to English (../index.ts).
 */
export const firstEn = {
  // The frame: app and part names, page titles, loading, chunk and page errors, toasts
  'app.name': 'Film Speech Trainer',
  'part.prpo': 'Part one',
  'part.prpt': 'Part two',
  'page.prpo.home': 'Part one · Home',
  'page.prpo.standby': 'Part one · Standby',
  'page.prpo.intro': 'Part one · Introduction',
  'page.prpo.login': 'Part one · Log in',
  'page.prpo.movies': 'Part one · Films',
  'page.prpo.cinema': 'Part one · Watch',
  'page.prpo.answer': 'Part one · Questions',
  'page.prpo.result': 'Part one · Result',
  'page.prpo.report': 'Part one · Report',
  'page.prpt.home': 'Part two · Home',
  'page.prpt.standby': 'Part two · Standby',
  'page.prpt.intro': 'Part two · Introduction',
  'page.prpt.login': 'Part two · Log in',
  'page.prpt.movies': 'Part two · Films',
  'page.prpt.cinema': 'Part two · Watch',
  'page.prpt.answer': 'Part two · Questions',
  'page.prpt.result': 'Part two · Result',
  'page.prpt.dub': 'Part two · Dubbing',
  'page.prpt.soundSuggest': 'Part two · Voice suggestions',
  'page.prpt.report': 'Part two · Report',
  'page.notFound': 'Page not found',
  'common.loading': 'Loading…',
  'common.retry': 'Retry',
  'common.close': 'Close',
  'chunk.title': 'The page failed to load',
  'chunk.timeout': 'The page file "{chunk}" timed out. Check the network and retry.',
  'chunk.missing':
    'The page file "{chunk}" could not be loaded (missing or the network dropped). Please retry.',
  'error.title': 'Something went wrong',
  'error.body': 'The page hit an unexpected error: {message}',
  'toast.sessionExpired': 'Your login has expired',
  'login.account': 'Account',
  'login.password': 'Password',
  'login.submit': 'Log in',
  'login.submitting': 'Logging in…',

  // Shared bits
  'ui.language': 'Language',
  'ui.logout': 'Log out',
  'ui.logoutAll': 'Sign out everywhere',
  'ui.qrSignedInAs': 'Signed in as {name}',
  'ui.notYou': 'Not you? Sign out',
  'ui.reload': 'Reload',
  'ui.minutesSeconds': '{m} min {s} s',
  'ui.loadFailedTitle': 'Nothing to show yet',
  'ui.loadFailedBody': 'The network may be unsteady. Please reload in a moment.',

  // Parts and steps
  'part.prpo.name': 'Film comprehension',
  'part.prpt.name': 'Film dubbing',
  'part.prpo.tagline':
    'Watch a classic film scene, answer questions, read the characters and their feelings.',
  'part.prpt.tagline': 'Dub a film scene line by line; your voice is scored against the actor’s.',
  'step.watch': 'Watch',
  'step.watch.desc': 'Watch the scene once, with subtitles on or off.',
  'step.answer': 'Answer',
  'step.answer.desc': 'Single, multiple choice and open questions, saved as you go.',
  'step.result': 'Result',
  'step.result.desc': 'An explanation for every question.',
  'step.dub': 'Dub',
  'step.dub.desc': 'Voice every line over the picture; retake any line once.',
  'step.suggest': 'Voice tips',
  'step.suggest.desc': 'Advice from your pitch, loudness and pace.',
  'step.report': 'Report',
  'step.report.desc': 'Scores, progress and the emotion arc; scan to take it home.',
  'steps.label': 'Training steps',

  // Standby
  'standby.title': 'Film Speech Trainer',
  'standby.tagline': 'Practise speaking and expression inside the movies',
  'standby.touch': 'Touch the screen to start',
  'standby.start': 'Start',

  // Kiosk idle
  'idle.title': 'Still there?',
  'idle.body':
    'In {s} s this kiosk returns to standby and logs out; your recordings do not stay on this device.',
  'idle.stay': 'Keep going',

  // Intro
  'intro.eyebrow': '{part} · How it works',
  'intro.start': 'Start training',
  'intro.login': 'Log in to start',
  'intro.duration': 'About {min} minutes in all',

  // Login
  'signin.title': 'Log in',
  'signin.subtitle': 'Log in to start training.',
  'signin.qr.title': 'Scan to log in',
  'signin.qr.alt': 'Login QR code: scan it with your phone',
  'signin.qr.waiting': 'Scan the QR code with your phone',
  'signin.qr.scanned': 'Scanned: sign in and confirm on your phone, and this screen logs in by itself',
  'signin.qr.step1': 'Point your phone’s camera at the code',
  'signin.qr.step2': 'Your phone opens a page: enter your account and password there, or just confirm',
  'signin.qr.step3': 'This screen then logs in by itself: no password typed here',
  'signin.qr.expired': 'The QR code expired; getting a new one…',
  'signin.qr.confirmed': 'Confirmed; logging you in…',
  'signin.qr.loading': 'Making the QR code…',
  'signin.qr.failed': 'Could not get a QR code',
  'signin.qr.refresh': 'New QR code',
  'signin.qr.loopback':
    "This code points to this computer itself ({host}), which a phone cannot open: ask the operator to set PUBLIC_URL to this machine's network address",
  'signin.or': 'or',
  'signin.form.title': 'Account and password',
  'signin.accountRequired': 'Enter your account',
  'signin.passwordRequired': 'Enter your password',
  'signin.accountPlaceholder': 'Your account',
  'signin.passwordPlaceholder': 'Your password',
  'signin.showPassword': 'Show password',
  'signin.hidePassword': 'Hide password',

  // Home
  'home.welcome': 'Hello, {name}',
  'home.welcomeGuest': 'Welcome to {part}',
  'home.recent': 'Recent training',
  'home.noRecent': 'No training yet. Start with the first film.',
  'home.browse': 'Browse films',
  'home.stats.title': 'My progress',
  'home.stats.films': 'films',
  'home.stats.answered': 'answered',
  'home.stats.dubbed': 'lines dubbed',
  'home.stats.best': 'best score',
  'home.howItWorks': 'How it works',
  'home.loginToTrack': 'Log in to see your progress.',
  'home.otherPart': 'The other part',
  'home.history': 'Report and history',
  'home.toOtherPart': 'Go to {part}: {name}',

  // Movies
  'movies.title': 'Choose a film',
  'movies.subtitle': '{n} films',
  'movies.empty': 'No films yet',
  'movies.emptyBody': 'Films appear here once they are published.',
  'movies.loading': 'Loading films…',
  'movies.lines': '{n} lines',
  'movies.questions': '{n} questions',
  'movies.notStarted': 'Not started',
  'movies.answered': 'Answered · best {score}',
  'movies.dubbed': 'Dubbed {done}/{total} lines',
  'movies.duration': 'Duration {d}',

  // 404
  'nf.title': 'Nothing here',
  'nf.body': 'No page lives at this address: {path}',
  'nf.home': 'Back to the {part} home',
} as const satisfies Record<keyof typeof firstZh, string>;
