import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
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
