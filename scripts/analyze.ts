/**
 * `npm run analyze -- <file.wav> [--reference <actor.wav>] [--target <emotion>]`
 *
 * Scores a take exactly as the AI service does (same header checks, same pipeline) and prints the
 * result JSON (contract `speechScore`) on stdout. No server or database needed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { EMOTIONS, type Emotion, speechScore } from '../src/api/contract';
import { checkTakeWav, nonFiniteSamples } from '../server/ai/audio-check';
import { runScoreJob } from '../server/ai/score-task';
import { AppError } from '../server/lib/app-error';

const USAGE = 'usage: npm run analyze -- <file.wav> [--reference <actor.wav>] [--target <emotion>]';

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

function readWav(file: string, role: string): Uint8Array {
  if (!fs.existsSync(file)) fail(`${role} file not found: ${file}`);
  const bytes = new Uint8Array(fs.readFileSync(file));
  try {
    checkTakeWav(bytes);
  } catch (err) {
    if (err instanceof AppError) fail(`${role} ${file}: ${err.message}`);
    throw err;
  }
  return bytes;
}

function main(): void {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      reference: { type: 'string', short: 'r' },
      target: { type: 'string', short: 't' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (positionals.length !== 1) fail(USAGE);
  const target = values.target ?? null;
  if (target !== null && !(EMOTIONS as readonly string[]).includes(target)) {
    fail(`unknown --target "${target}"; one of: ${EMOTIONS.join(', ')}`);
  }
  const file = positionals[0];
  const wav = readWav(file, 'take');
  const reference = values.reference ? { wav: readWav(values.reference, 'reference') } : null;
  const result = runScoreJob({
    wav,
    reference,
    targetEmotion: target as Emotion | null,
    speakerStats: null,
    meta: {
      takeId: path.basename(file, path.extname(file)),
      subtitlesId: values.reference ? path.basename(values.reference, path.extname(values.reference)) : '',
      filmId: '',
      attempt: 1,
      audioUrl: path.resolve(file),
      createdAt: new Date().toISOString(),
    },
  });
  if (result.refused) fail(`take ${file}: ${nonFiniteSamples(result.refused.count).message}`);
  // The same schema the service answers with: a failure here is a bug, not a user error.
  console.log(JSON.stringify(speechScore.parse(result.score), null, 2));
}

main();
