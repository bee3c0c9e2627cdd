import fs from 'node:fs';
import path from 'node:path';
import { startProcess, type TestProcess } from '../../support/processes';

export const NGINX = process.env.NGINX_PATH || '/usr/sbin/nginx';

/**
 * nginx (Debian's package) as the balancer of the cluster test: round robin over the app instances,
 * its own prefix, config and temp folders in `dir`, one process (no master, no daemon) so the test
 * owns it, and the request id it makes ($request_id) sent to the apps as X-Request-Id.
 */
export async function startNginx(dir: string, port: number, upstreams: number[]): Promise<TestProcess> {
  fs.mkdirSync(path.join(dir, 'logs'), { recursive: true });
  const conf = `
daemon off;
master_process off;
pid ${dir}/nginx.pid;
error_log stderr warn;
events { worker_connections 512; }
http {
  access_log off;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream app {
${upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=10s;`).join('\n')}
    keepalive 16;
  }
  server {
    listen 127.0.0.1:${port};
    client_max_body_size 16m;
    location / {
      proxy_pass http://app;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Request-Id $request_id;
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_next_upstream error timeout http_503;
      proxy_read_timeout 90s;
    }
  }
}
`;
  fs.writeFileSync(path.join(dir, 'nginx.conf'), conf);
  return startProcess('nginx', NGINX, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', 'stderr']);
}
