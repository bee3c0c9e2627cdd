import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ffmpeg } from '../../../server/films/ffmpeg';
import type { FilmManifestInput } from '../../../server/films/manifest';

let mediaCache: Promise<string> | null = null;

/** A 6-second synthetic clip (blue frame + 220 Hz tone) and a poster, generated once per test run. */
function syntheticMedia(): Promise<string> {
  mediaCache ??= (async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fst-media-'));
    await ffmpeg([
      '-f',
      'lavfi',
      '-i',
      'color=c=blue:s=160x90:r=15:d=6',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=220:sample_rate=44100:duration=6',
      '-c:v',
      'mpeg4',
      '-c:a',
      'aac',
      '-shortest',
      '-y',
      path.join(dir, 'video.mp4'),
    ]);
    await ffmpeg([
      '-f',
      'lavfi',
      '-i',
      'color=c=red:s=90x120',
      '-frames:v',
      '1',
      '-y',
      path.join(dir, 'poster.jpg'),
    ]);
    return dir;
  })();
  return mediaCache;
}

export const FIXTURE_SRT = `1
00:00:00,500 --> 00:00:01,800
你好，世界。

2
00:00:02,000 --> 00:00:03,250
我们走吧！

3
00:00:03,500 --> 00:00:05,000
再见。
`;

/** Answers to the fixture film's two scored questions (fixtureManifest): both right, and q2 wrong. */
export const ALL_RIGHT = [
  { questionId: 'q1', value: 'a' },
  { questionId: 'q2', value: ['a', 'b'] },
];
export const HALF_RIGHT = [
  { questionId: 'q1', value: 'a' },
  { questionId: 'q2', value: ['c'] },
];

export function fixtureManifest(id: string): FilmManifestInput {
  const l = (zh: string, en: string) => ({ zh, en });
  return {
    id,
    title: '测试影片',
    titleEn: 'Test Film',
    synopsis: l('一段测试用的影片。', 'A film for tests.'),
    parts: ['prpo', 'prpt'],
    roles: [{ name: '甲', description: l('主角', 'Lead') }],
    video: 'video.mp4',
    poster: 'poster.jpg',
    subtitles: 'subtitles.srt',
    lines: [
      {
        index: 1,
        speaker: '甲',
        translation: l('你好，世界。', 'Hello, world.'),
        targetEmotion: 'happiness',
      },
      { index: 2, speaker: '甲', translation: l('我们走吧！', "Let's go!"), targetEmotion: 'anger' },
      { index: 3, speaker: '乙', translation: l('再见。', 'Goodbye.'), targetEmotion: null },
    ],
    questions: [
      {
        id: 'q1',
        kind: 'single',
        prompt: l('甲说了什么？', 'What does A say?'),
        options: [
          { id: 'a', label: l('你好', 'Hello') },
          { id: 'b', label: l('再见', 'Bye') },
        ],
        answer: ['a'],
        explanation: l('第一句是“你好”。', 'The first line is hello.'),
        required: true,
        points: 10,
      },
      {
        id: 'q2',
        kind: 'multiple',
        prompt: l('哪些人物出现了？', 'Who appears?'),
        options: [
          { id: 'a', label: l('甲', 'A') },
          { id: 'b', label: l('乙', 'B') },
          { id: 'c', label: l('丙', 'C') },
        ],
        answer: ['a', 'b'],
        explanation: l('甲和乙。', 'A and B.'),
        required: true,
        points: 20,
      },
      {
        id: 'q3',
        kind: 'text',
        prompt: l('你怎么看？', 'What do you think?'),
        options: [],
        answer: [],
        explanation: l('开放题。', 'Open question.'),
        required: false,
        points: 5,
      },
    ],
  };
}

/**
 * Writes a complete film folder (film.json, video, poster, srt) into a new temp dir. `mutate` may
 * change the manifest or the files to build broken variants for error tests.
 */
export async function makeFilmFolder(
  id = 'test-film',
  mutate?: (m: FilmManifestInput, dir: string) => void,
): Promise<string> {
  const media = await syntheticMedia();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `fst-film-${id}-`));
  fs.copyFileSync(path.join(media, 'video.mp4'), path.join(dir, 'video.mp4'));
  fs.copyFileSync(path.join(media, 'poster.jpg'), path.join(dir, 'poster.jpg'));
  fs.writeFileSync(path.join(dir, 'subtitles.srt'), FIXTURE_SRT);
  const manifest = fixtureManifest(id);
  mutate?.(manifest, dir);
  fs.writeFileSync(path.join(dir, 'film.json'), JSON.stringify(manifest, null, 2));
  return dir;
}
