import { readFileSync } from 'node:fs';
/** Escapes text for HTML element content and attribute values. */
export function esc(value: unknown): string {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** A tagged template whose interpolations are escaped unless wrapped in raw(). */
export class Raw {
  constructor(readonly html: string) {}
}
export const raw = (html: string) => new Raw(html);

export function html(strings: TemplateStringsArray, ...values: unknown[]): Raw {
  let out = strings[0];
  values.forEach((v, i) => {
    const part = Array.isArray(v)
      ? v.map((x) => (x instanceof Raw ? x.html : esc(x))).join('')
      : v instanceof Raw
        ? v.html
        : esc(v);
    out += part + strings[i + 1];
  });
  return new Raw(out);
}

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:16px/1.55 -apple-system,"PingFang SC","Microsoft YaHei",sans-serif;
background:#0f1115;color:#e9ecf1}main{max-width:560px;margin:0 auto;padding:24px 18px 40px}
h1{font-size:22px;margin:8px 0 4px}h2{font-size:17px;margin:22px 0 8px}.en{color:#9aa3b2;font-size:13px}
.card{background:#1a1e26;border-radius:14px;padding:16px;margin:12px 0}
label{display:block;margin:12px 0 4px}input{width:100%;padding:12px;border-radius:10px;border:1px solid #333b4a;
background:#11141a;color:inherit;font-size:16px}button{width:100%;padding:13px;border:0;border-radius:10px;
font-size:16px;margin-top:14px;cursor:pointer}.primary{background:#f5b942;color:#1a1200;font-weight:600}
.primary .en{color:inherit}.ghost{background:#2a303c;color:#e9ecf1}.error{color:#ff8a80}.ok{color:#8ee29a}
.big{font-size:40px;font-weight:700}.row{display:flex;justify-content:space-between;gap:8px;padding:6px 0;
border-bottom:1px solid #262c38}.row:last-child{border:0}img.poster{width:100%;border-radius:12px}
video.dub{display:block;width:100%;aspect-ratio:16/9;background:#000;border-radius:12px;margin-top:8px}
.words{margin:4px 0 10px}.words .w{margin-right:.4em}.words s{opacity:.6;text-decoration-thickness:2px}
.words .off{text-decoration:underline wavy #f0c04a;text-underline-offset:4px}
.words .sum{color:#9aa3b2;font-size:14px;margin:2px 0 0}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.top{display:flex;align-items:center;justify-content:space-between;gap:8px;flex-wrap:wrap}
.brand{color:#f5b942;font-weight:600}.langs{display:flex;gap:4px}
.langs a{display:inline-flex;align-items:center;justify-content:center;min-height:44px;min-width:44px;
padding:0 14px;border:1px solid #333b4a;border-radius:22px;color:#e9ecf1;text-decoration:none}
.langs a[aria-current]{background:#2a303c;border-color:#f5b942}
label.check{display:flex;align-items:center;gap:12px;min-height:44px;margin:14px 0 0;cursor:pointer}
label.check input{flex:none;width:24px;height:24px;margin:0;padding:0;accent-color:#f5b942}
`;

/**
 * The app's icon (public/favicon.svg, the one the SPA links) inlined as a data URI: the pages stay
 * self-contained, and the browser asks for no /favicon.ico (a 404 on every page otherwise).
 */
const ICON = `data:image/svg+xml;base64,${readFileSync(new URL('../../public/favicon.svg', import.meta.url)).toString('base64')}`;

/**
 * A self-contained mobile page: no scripts, no external assets, so it works on any phone browser.
 * `top` goes above the body (server/h5/lang.ts phoneHeader: the product's name and the language switch).
 */
export function page(title: string, body: Raw, lang: 'zh' | 'en' = 'zh', top?: Raw): string {
  return `<!doctype html><html lang="${lang === 'zh' ? 'zh-CN' : 'en'}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1,viewport-fit=cover">
<meta name="robots" content="noindex"><link rel="icon" type="image/svg+xml" href="${ICON}">
<title>${esc(title)}</title><style>${STYLE}</style></head>
<body><main>${top?.html ?? ''}${body.html}</main></body></html>`;
}
