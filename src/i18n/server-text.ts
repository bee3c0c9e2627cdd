/** The server messages (server-messages.ts) in both languages, and their wording. */
import { format, type Lang, type Values } from './format';
import type { ServerMessageId } from './server-messages';
import { serverMessagesEn } from './server-messages.en';
import { serverMessagesZh } from './server-messages.zh';

export const SERVER_CATALOGUE: Record<Lang, Record<ServerMessageId, string>> = {
  zh: serverMessagesZh,
  en: serverMessagesEn,
};

/** A server message in a language, its values filled in (format.ts). */
export function serverText(id: ServerMessageId, lang: Lang, values: Values = {}): string {
  return format(SERVER_CATALOGUE[lang][id], values, lang);
}
