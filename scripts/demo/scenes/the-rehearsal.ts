/**
 * Film 4 (prpt only). A director has two actors try the same everyday sentences in different
 * feelings: all seven EmoDB emotions in one scene, which is exactly what the dubbing part trains.
 */
import { EMOTION_LABELS as E } from '../../../src/audio/scoring/labels';
import { multiple, single, text } from './question-helpers';
import type { SceneDefinition } from './scene-types';

export const theRehearsal: SceneDefinition = {
  id: 'the-rehearsal',
  title: '排练',
  titleEn: 'The Rehearsal',
  synopsis: {
    zh: '剧场排练。导演罗特女士让演员克拉拉和费利克斯用不同的情绪说同样几句家常话。听一听：字一样，情绪变了，声音就全变了——然后自己试一试。',
    en: 'A theatre rehearsal. The director, Frau Roth, has her actors Klara and Felix say the same everyday sentences with different feelings. Listen to how the same words change when the feeling changes, then try each one yourself.',
  },
  parts: ['prpt'],
  roles: [
    {
      name: 'Frau Roth',
      emodbSpeaker: '16',
      description: { zh: '导演，先把台词念一遍。', en: 'The director; reads each line first.' },
    },
    {
      name: 'Klara',
      emodbSpeaker: '13',
      description: { zh: '演员，表达细腻。', en: 'An actor with a fine touch.' },
    },
    {
      name: 'Felix',
      emodbSpeaker: '12',
      description: { zh: '演员，什么都敢试。', en: 'An actor who will try anything.' },
    },
  ],
  lines: [
    { take: '16a04Nc', speaker: 'Frau Roth' },
    { take: '13a04Fc', speaker: 'Klara' },
    { take: '12a01Lb', speaker: 'Felix' },
    { take: '13a01Ea', speaker: 'Klara' },
    { take: '16a02Wb', speaker: 'Frau Roth' },
    { take: '12a02Ac', speaker: 'Felix' },
    { take: '13a02Ta', speaker: 'Klara' },
    { take: '12a01Fb', speaker: 'Felix' },
  ],
  questions: [
    single(
      'q1',
      {
        zh: '罗特女士用什么情绪念“今天晚上我可以把这事告诉他”（第1句）？',
        en: 'In which feeling does Frau Roth read "I could tell him tonight" (line 1)?',
      },
      { a: E.anger, b: E.neutral, c: E.fear, d: E.sadness },
      'b',
      {
        zh: '平静（中性）：她平常的音高，旋律起伏很小，不带任何情绪色彩，是给演员的“原样”示范。',
        en: 'Neutral: her ordinary pitch, a narrow melody and no emotional colour; a plain reading for the actors.',
      },
      15,
    ),
    single(
      'q2',
      {
        zh: '克拉拉接着说了同一句话（第2句），是什么情绪？',
        en: 'Klara answers with the same sentence (line 2). Which feeling?',
      },
      { a: E.fear, b: E.disgust, c: E.boredom, d: E.happiness },
      'd',
      {
        zh: '高兴：音调比她其他几句都高，旋律起伏大、声音明亮——好像她终于等到了可以说出口的那一晚。',
        en: 'Happiness: higher than her other lines, with a lively melody and a bright voice, as if she can hardly wait for tonight.',
      },
      15,
    ),
    single(
      'q3',
      {
        zh: '克拉拉说“抹布在冰箱上放着”（第4句），好像那块抹布脏得要命。这是什么情绪？',
        en: 'Klara says "The cloth is lying on the fridge" (line 4) as if it were filthy. Which emotion is that?',
      },
      { a: E.neutral, b: E.happiness, c: E.disgust, d: E.fear },
      'c',
      {
        zh: '厌恶：语速慢、字音被挤压拉长，重读处带着嫌弃的口气。',
        en: 'Disgust: slow, with squeezed, drawn-out syllables and a scornful tone on the stressed words.',
      },
      15,
    ),
    multiple(
      'q4',
      { zh: '费利克斯尝试了哪些情绪？（多选）', en: 'Which feelings does Felix try? (choose all)' },
      { a: E.boredom, b: E.anger, c: E.happiness, d: E.fear, e: E.sadness },
      ['a', 'c', 'd'],
      {
        zh: '第3句厌倦，第6句恐惧，第8句高兴。愤怒是罗特女士（第5句），悲伤是克拉拉（第7句）。',
        en: "Line 3 boredom, line 6 fear, line 8 happiness. The anger is Frau Roth's (line 5) and the sadness Klara's (line 7).",
      },
      20,
    ),
    single(
      'q5',
      { zh: '谁用悲伤的情绪说了一句台词？', en: 'Who speaks a line in sadness?' },
      {
        a: { zh: '费利克斯', en: 'Felix' },
        b: { zh: '克拉拉', en: 'Klara' },
        c: { zh: '罗特女士', en: 'Frau Roth' },
      },
      'b',
      {
        zh: '克拉拉的第7句：是她三句里音调最低的，声音沉重、发颤，像要哭出来。',
        en: "Klara's line 7: the lowest of her three lines, with a heavy, unsteady, near-tearful voice.",
      },
      15,
    ),
    text(
      'q6',
      {
        zh: '第5至7句都是“她想在星期三把它交上去”。任选两句，说说它们在音高、语速和嗓音质感上有什么不同。',
        en: 'Lines 5 to 7 are all "She wants to hand that in on Wednesday". Pick two and describe how they differ in pitch, speed and voice quality.',
      },
      {
        zh: '第5句（愤怒）：音调很高、嗓音用力发紧，起音硬，每个重读字都像砸出来。第6句（恐惧）：比费利克斯平时的声音高，又急又紧，是三句里最短的。第7句（悲伤）：更低、更沉，声音发颤，像要哭。',
        en: "Line 5 (anger): very high and strained, hard attacks, every stressed word hammered out. Line 6 (fear): above Felix's usual pitch, hurried and tense, the shortest of the three. Line 7 (sadness): lower and heavier, with an unsteady, near-tearful voice.",
      },
      20,
    ),
  ],
};
