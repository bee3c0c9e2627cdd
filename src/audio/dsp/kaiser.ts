/**
 * Kaiser-windowed sinc design helpers (Kaiser 1974; formulas as in Oppenheim & Schafer §7.6). Pure.
 */

/** Zeroth-order modified Bessel function of the first kind, by its power series. */
export function besselI0(x: number): number {
  let sum = 1;
  let term = 1;
  const half = x / 2;
  for (let k = 1; k < 64; k++) {
    term *= (half / k) * (half / k);
    sum += term;
    if (term < sum * 1e-17) break;
  }
  return sum;
}

/** Kaiser beta for a stopband attenuation in dB. */
export function kaiserBeta(attenuationDb: number): number {
  if (attenuationDb > 50) return 0.1102 * (attenuationDb - 8.7);
  if (attenuationDb >= 21) return 0.5842 * (attenuationDb - 21) ** 0.4 + 0.07886 * (attenuationDb - 21);
  return 0;
}

/** Taps needed for a given attenuation and a transition width expressed as a fraction of the sample rate. */
export function kaiserTaps(attenuationDb: number, transitionFraction: number): number {
  return Math.ceil((attenuationDb - 7.95) / (14.36 * transitionFraction)) + 1;
}

/** sin(πx)/(πx). */
export function sinc(x: number): number {
  if (x === 0) return 1;
  const px = Math.PI * x;
  return Math.sin(px) / px;
}
