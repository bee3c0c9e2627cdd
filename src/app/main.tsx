import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { setLang, storedLang } from './i18n';
import { rememberDeviceFromUrl } from './lib/device';
import './styles/index.css';

// A `?device=kiosk|personal` mark is read before any redirect drops it (lib/device.ts).
rememberDeviceFromUrl();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element to mount the app into');

function render(into: HTMLElement) {
  createRoot(into).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

/**
 * Takes recorded offline or while the AI service was down are sent wherever the learner is: the
 * uploads feature owns every trigger (app start, online, login, learner change). The first screen
 * needs none of them, so they load once the app is rendering (their first check waits for an idle
 * browser anyway, and sees a login or a pending take that came before). If they cannot load, the
 * next `online` tries again.
 */
function startUploads(): void {
  import('./stores/uploads/start').then(
    (m) => m.start(),
    (e: unknown) => {
      console.error('[uploads] cannot load the upload triggers; trying again when back online', e);
      window.addEventListener('online', startUploads, { once: true });
    },
  );
}

function startApp(into: HTMLElement) {
  render(into);
  startUploads();
}

// The stored language applies before the first render (its messages load first when it is English),
// so a visitor who chose English never sees the app in Chinese first; if they cannot load, Chinese.
// A promise, not a top-level await: with one, the bundler splits the entry into many small chunks.
setLang(storedLang()).then(
  () => startApp(root),
  (e: unknown) => {
    console.error('[i18n] cannot load the stored language; showing Chinese', e);
    startApp(root);
  },
);
