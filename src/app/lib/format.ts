import type { Lang } from '../i18n';

/** 125 000 ms → "2:05" (what a player shows). */
export function clock(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const m = Math.floor(total / 60);
  const s = total % 60;
  return `${m}:${String(s).padStart(2, '0')}`;
}

/** Seconds → "2:05", for media time. */
export function clockSeconds(s: number): string {
  return clock(Number.isFinite(s) ? s * 1000 : 0);
}

export function minutesSeconds(ms: number): { m: number; s: number } {
  const total = Math.max(0, Math.round(ms / 1000));
  return { m: Math.floor(total / 60), s: total % 60 };
}

/**
 * One formatter per language, made once: `toLocaleString` with options builds a new one on every
 * call, the costliest function of the report's load (182 ms of its 1.5 s of main-thread work in a
 * CPU profile taken at load average 20).
 */
const dateFormats = new Map<Lang, Intl.DateTimeFormat>();

export function formatDate(iso: string, lang: Lang): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  let format = dateFormats.get(lang);
  if (!format) {
    format = new Intl.DateTimeFormat(lang === 'zh' ? 'zh-CN' : 'en-GB', {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
    });
    dateFormats.set(lang, format);
  }
  return format.format(d);
}

/** A signed figure with one decimal: +4.5 / −2.0; null → null. */
export function signed(n: number | null | undefined, digits = 1): string | null {
  if (n === null || n === undefined || !Number.isFinite(n)) return null;
  const v = n.toFixed(digits);
  return n > 0 ? `+${v}` : n < 0 ? `−${v.slice(1)}` : v;
}

export function fixed(n: number | null | undefined, digits = 1): string | null {
  if (n === null || n === undefined || !Number.isFinite(n)) return null;
  return n.toFixed(digits);
}
