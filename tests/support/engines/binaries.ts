import fs from 'node:fs';

/**
 * The programs the engine journeys run, each with the Debian package that ships it (`.ci/run`
 * installs them). A missing one fails the suite at once with the package to install, rather than
 * with a spawn error deep inside a journey.
 */
export const BINARIES = {
  firefox: { path: process.env.FIREFOX_PATH || '/usr/bin/firefox-esr', deb: 'firefox-esr' },
  webkitDriver: { path: '/usr/bin/WebKitWebDriver', deb: 'webkit2gtk-driver' },
  miniBrowser: {
    path: process.env.MINIBROWSER_PATH || '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
    deb: 'webkit2gtk-driver',
  },
  wpeDriver: { path: '/usr/bin/WPEWebDriver', deb: 'wpewebkit-driver' },
  cog: { path: '/usr/bin/cog', deb: 'cog' },
  xvfb: { path: '/usr/bin/Xvfb', deb: 'xvfb' },
  pulseaudio: { path: '/usr/bin/pulseaudio', deb: 'pulseaudio' },
  pactl: { path: '/usr/bin/pactl', deb: 'pulseaudio-utils' },
  paplay: { path: '/usr/bin/paplay', deb: 'pulseaudio-utils' },
  parec: { path: '/usr/bin/parec', deb: 'pulseaudio-utils' },
  chrt: { path: '/usr/bin/chrt', deb: 'util-linux' },
} as const;

export type BinaryName = keyof typeof BINARIES;

/** The path of each program asked for; throws one error naming every missing one and its package. */
export function requireBinaries(...names: BinaryName[]): Record<BinaryName, string> {
  const missing = names.filter((n) => !fs.existsSync(BINARIES[n].path));
  if (missing.length > 0) {
    const list = missing.map((n) => `${BINARIES[n].path} (apt-get install ${BINARIES[n].deb})`);
    throw new Error(`the engine journeys need programs that are not installed: ${list.join(', ')}`);
  }
  return Object.fromEntries(Object.entries(BINARIES).map(([n, b]) => [n, b.path])) as Record<
    BinaryName,
    string
  >;
}
