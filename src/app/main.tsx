import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { start as startUploads } from './features/uploads/start';
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

// Takes recorded offline or while the AI service was down are sent wherever the learner is: the
// uploads feature owns every trigger (app start, online, login, learner change).
startUploads();
