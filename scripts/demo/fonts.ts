/**
 * Fonts for drawtext at build time only (the built films are committed, so users never need them).
 * A CJK font draws the Chinese title; without one the backdrop shows only the English title.
 * Debian: `apt-get install fonts-dejavu-core fonts-wqy-microhei`.
 */
import { existsSync } from 'node:fs';

const LATIN = [
  process.env.DEMO_FONT_LATIN,
  '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
  '/usr/share/fonts/TTF/DejaVuSans.ttf',
];
const LATIN_BOLD = [
  process.env.DEMO_FONT_LATIN_BOLD,
  '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf',
  '/usr/share/fonts/TTF/DejaVuSans-Bold.ttf',
];
const CJK = [
  process.env.DEMO_FONT_CJK,
  '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc',
  '/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc',
  '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
];

const first = (paths: (string | undefined)[]) => paths.find((p): p is string => !!p && existsSync(p));

export interface DemoFonts {
  latin: string;
  latinBold: string;
  cjk: string | undefined;
}

export function findFonts(): DemoFonts {
  const latin = first(LATIN);
  if (!latin) {
    throw new Error('no Latin font for the film backdrop: install fonts-dejavu-core or set DEMO_FONT_LATIN');
  }
  return { latin, latinBold: first(LATIN_BOLD) ?? latin, cjk: first(CJK) };
}
