import { useSignals } from '@preact/signals-react/runtime';
import { type ComponentType, type LazyExoticComponent, lazy, Suspense, useState } from 'react';
import { type MessageKey, t } from '../i18n';
import { usePageTitle } from '../lib/page-title';
import { ChunkErrorBoundary } from './chunk-error-boundary';
import { CHUNK_TIMEOUT_MS, loadChunk } from './load-chunk';

type PageModule = { default: ComponentType };

/** One route page as a lazy chunk; `current` is replaced by a fresh lazy component on retry. */
export interface LazyEntry {
  chunk: string;
  current: LazyExoticComponent<ComponentType>;
  renew: () => void;
}

export function lazyPage(
  chunk: string,
  importer: () => Promise<PageModule>,
  timeoutMs = CHUNK_TIMEOUT_MS,
): LazyEntry {
  const make = () => lazy(() => loadChunk(chunk, importer, timeoutMs));
  const entry: LazyEntry = {
    chunk,
    current: make(),
    renew: () => {
      entry.current = make();
    },
  };
  return entry;
}

function PageLoading() {
  useSignals();
  return (
    <p role="status" className="page-loading">
      {t('common.loading')}
    </p>
  );
}

/**
 * Renders a route's lazy page inside its error boundary and gives the route its title (a page may
 * refine it, e.g. with a film name: it mounts after the chunk arrives, so its effect runs later). Retry builds a fresh `React.lazy`
 * (a failed lazy component keeps its rejection forever), so the import really runs again.
 * `data-page` appears once the page module has loaded: tests use it to know which page a route shows.
 */
export function LazyPage({ entry, titleKey }: { entry: LazyEntry; titleKey: MessageKey }) {
  usePageTitle(titleKey, 0);
  const [, setAttempt] = useState(0);
  const retry = () => {
    entry.renew();
    setAttempt((n) => n + 1);
  };
  const Current = entry.current;
  return (
    <ChunkErrorBoundary onRetry={retry}>
      <Suspense fallback={<PageLoading />}>
        <div className="page-root" data-page={entry.chunk}>
          <Current />
        </div>
      </Suspense>
    </ChunkErrorBoundary>
  );
}
