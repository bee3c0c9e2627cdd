import type { Lang } from '../../../src/i18n';

/**
 * Where the QR code of a login request points. The built-in provider opens our own phone confirm
 * page; a messaging-app OAuth provider would return its authorisation URL (carrying the uuid as
 * `state`) and confirm the request from its callback route. Chosen by QR_PROVIDER.
 */
export interface QrLoginProvider {
  readonly name: string;
  /**
   * The link encoded in the QR code. Must carry the uuid in its query string (docs/api.md, "Sign-in");
   * `lang` is the kiosk's language, which the phone's page speaks.
   */
  linkFor(uuid: string, publicBase: string, lang: Lang): string;
}

/** Our own mobile confirm page, served at /producer/h5/qr. */
export const localQrProvider: QrLoginProvider = {
  name: 'local',
  linkFor: (uuid, publicBase, lang) =>
    `${publicBase}/producer/h5/qr?uuid=${encodeURIComponent(uuid)}&lang=${lang}`,
};

const PROVIDERS: Record<string, QrLoginProvider> = { local: localQrProvider };

export function qrProvider(name: string): QrLoginProvider {
  const provider = PROVIDERS[name];
  if (!provider) throw new Error(`Unknown QR login provider "${name}"`);
  return provider;
}
