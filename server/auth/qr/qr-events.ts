import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';

/**
 * Tells the long polls of a QR login request that its state changed (scanned, confirmed,
 * cancelled), on whichever instance holds them. Without Redis the notice reaches this process only,
 * and a poll also re-reads the database every 250 ms, so instances that share only the database
 * still see each other's changes. With Redis the notice is a pub/sub message to every instance;
 * pub/sub drops messages while a subscriber reconnects, so a poll still re-reads every 2 s.
 */
export class QrEvents {
  private readonly local = new EventEmitter();
  readonly fallbackPollMs: number;

  constructor(private readonly redis?: { publisher: Redis; subscriber: Redis; channel: string }) {
    this.local.setMaxListeners(0);
    this.fallbackPollMs = redis ? 2_000 : 250;
    if (redis) {
      redis.subscriber.on('message', (channel: string, uuid: string) => {
        if (channel === redis.channel) this.local.emit(uuid);
      });
    }
  }

  /** Subscribes (Redis); resolves once messages are flowing. */
  async start(): Promise<void> {
    if (this.redis) await this.redis.subscriber.subscribe(this.redis.channel);
  }

  async publish(uuid: string): Promise<void> {
    if (this.redis) await this.redis.publisher.publish(this.redis.channel, uuid);
    else this.local.emit(uuid);
  }

  /** Resolves true on a change of `uuid`, false after `ms` or once `signal` aborts. */
  changed(uuid: string, ms: number, signal?: AbortSignal): Promise<boolean> {
    return new Promise((resolve) => {
      const finish = (changed: boolean) => {
        clearTimeout(timer);
        this.local.off(uuid, onChange);
        signal?.removeEventListener('abort', onAbort);
        resolve(changed);
      };
      const onChange = () => finish(true);
      const onAbort = () => finish(false);
      const timer = setTimeout(() => finish(false), ms);
      this.local.on(uuid, onChange);
      signal?.addEventListener('abort', onAbort);
    });
  }
}
