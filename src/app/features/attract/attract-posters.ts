import type { FilmSummary } from '../../../api/contract';
import { prefixImage } from '../../../api/image';

export interface AttractPoster {
  key: string;
  title: string;
  src: string;
  /** A background tone when there is no image (or it fails). */
  tone: string;
}

// Standby is public, so it cannot ask for the film list. It shows the films a previous screen
// already loaded, and otherwise a quiet wall of tinted title cards: never an empty black screen.
const TONES = ['#2a2238', '#1f2c35', '#35271d', '#1d2a24', '#2e1f26', '#232a3a', '#33301f', '#262033'];
const FALLBACK_TITLES = ['光影', '声台', '对白', '情感', '节奏', '语调', '角色', '镜头'];

// Titles and posters are the catalogue, not the learner's data: the shelf remembers them in memory
// so the attract loop keeps showing real posters after an idle logout has emptied the stores.
let remembered: readonly FilmSummary[] = [];

export function rememberAttractFilms(films: readonly FilmSummary[]): void {
  if (films.length) remembered = films;
}

export function attractPosters(films: readonly FilmSummary[], min = 8): AttractPoster[] {
  const source = films.length ? films : remembered;
  const base: AttractPoster[] = source.map((f, i) => ({
    key: f.id,
    title: f.title,
    src: prefixImage(f.poster),
    tone: TONES[i % TONES.length],
  }));
  if (base.length === 0) {
    FALLBACK_TITLES.forEach((title, i) => {
      base.push({ key: `fallback-${i}`, title, src: '', tone: TONES[i % TONES.length] });
    });
  }
  const out: AttractPoster[] = [];
  for (let i = 0; out.length < Math.max(min, base.length); i++) {
    const p = base[i % base.length];
    out.push({ ...p, key: `${p.key}-${i}` });
  }
  return out;
}
