import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { resumeUploadsInBackground } from './features/dub/resume-uploads';
import { lang, setLang } from './i18n';
import './styles/index.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element to mount the app into');

setLang(lang.peek()); // applies the persisted language to <html lang>

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// Takes recorded offline or while the AI service was down are sent at app start (when idle), when the
// browser comes back online and after a login, not only on the dub page. The queue is loaded only
// when a logged-in learner has something pending.
resumeUploadsInBackground();
