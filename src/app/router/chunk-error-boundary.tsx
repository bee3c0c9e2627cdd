import { useSignals } from '@preact/signals-react/runtime';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { t } from '../i18n';
import { isChunkLoadError } from './load-chunk';

interface Props {
  onRetry: () => void;
  children: ReactNode;
}

interface State {
  error: unknown;
}

/** Shows why a page could not be shown and offers a retry, never a blank screen. */
export function PageErrorView({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  useSignals();
  const chunk = isChunkLoadError(error);
  const title = chunk ? t('chunk.title') : t('error.title');
  const body = chunk
    ? t(error.reason === 'timeout' ? 'chunk.timeout' : 'chunk.missing', { chunk: error.chunk })
    : t('error.body', { message: error instanceof Error ? error.message : String(error) });
  return (
    <div role="alert" className="page-error">
      <h1>{title}</h1>
      <p>{body}</p>
      <button type="button" onClick={onRetry}>
        {t('common.retry')}
      </button>
    </div>
  );
}

export class ChunkErrorBoundary extends Component<Props, State> {
  state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error };
  }

  componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('[page] failed to render', error, info.componentStack);
  }

  private retry = () => {
    this.props.onRetry();
    this.setState({ error: null });
  };

  render() {
    if (this.state.error) return <PageErrorView error={this.state.error} onRetry={this.retry} />;
    return this.props.children;
  }
}
