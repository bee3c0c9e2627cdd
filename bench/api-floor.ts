/**
 * Child of `npm run bench:api`: the floor. A bare Fastify server (no plugins, no logger, no database)
 * whose routes answer the bytes our service answered for the same call: same status, same headers,
 * same body. Whatever it costs is HTTP and Fastify itself on this machine under this load.
 */
import Fastify from 'fastify';
import { closeOnSignal, receiveInit, serveProfilerCommands } from './child';

export interface FloorRoute {
  method: 'GET' | 'POST';
  /** Path without the query string (routing ignores it). */
  path: string;
  status: number;
  headers: Record<string, string>;
  bodyBase64: string;
}

const routes = await receiveInit<FloorRoute[]>();
const app = Fastify({ logger: false });
for (const r of routes) {
  const body = Buffer.from(r.bodyBase64, 'base64');
  // POST bodies are still read and parsed (Fastify's built-in JSON parser), as a real route must.
  app.route({
    method: r.method,
    url: r.path,
    handler: (_req, reply) => reply.code(r.status).headers(r.headers).send(body),
  });
}
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
serveProfilerCommands();
closeOnSignal(() => app.close());
process.send?.({ ready: { url: `http://127.0.0.1:${port}` } });
