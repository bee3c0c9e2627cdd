/**
 * Film 1 (prpo + prpt). Two flatmates quarrel in their kitchen. This is the film the test
 * fixtures dub: speaker 15 (not used here) has every line's sentence in the matching emotion.
 */
import { EMOTION_LABELS as E } from '../../../src/audio/scoring/labels';
import { multiple, single, text } from './question-helpers';
import type { SceneDefinition } from './scene-types';

const handBack = { zh: '她想星期三把它交还。', en: 'She wants to hand it back on Wednesday.' };

export const ragOnTheFridge: SceneDefinition = {
  id: 'rag-on-the-fridge',
  title: '冰箱上的抹布',
  titleEn: 'The Rag on the Fridge',
  synopsis: {
    zh: '合租公寓的厨房里。室友米娅要搬走了，星期三把房间交还给房东，今晚房东先来看房。安娜又发现那块脏抹布搁在冰箱上，气坏了；本却满不在乎——直到他算了算还剩多少时间。',
    en: 'The kitchen of a shared flat. Their flatmate Mia is moving out and hands her room back on Wednesday; tonight the landlord comes to look at the flat. Anna finds the dirty cloth on the fridge again and is furious. Ben could not care less, until he works out how little time is left.',
  },
  parts: ['prpo', 'prpt'],
  roles: [
    {
      name: 'Anna',
      emodbSpeaker: '08',
      description: {
        zh: '本的室友，爱整洁，已经忍无可忍。',
        en: "Ben's flatmate; tidy, and out of patience.",
      },
    },
    {
      name: 'Ben',
      emodbSpeaker: '10',
      description: {
        zh: '安娜的室友，凡事无所谓，直到慌了神。',
        en: "Anna's flatmate; easy-going until he panics.",
      },
    },
  ],
  lines: [
    { take: '08a01Wc', speaker: 'Anna' },
    { take: '10a01Nb', speaker: 'Ben' },
    { take: '08a02Wc', speaker: 'Anna', translation: handBack },
    { take: '10a02Lb', speaker: 'Ben', translation: handBack },
    { take: '08a04Wc', speaker: 'Anna' },
    { take: '10a07Aa', speaker: 'Ben' },
    { take: '08a07Fd', speaker: 'Anna' },
  ],
  questions: [
    single(
      'q1',
      {
        zh: '安娜第一次说抹布在冰箱上（第1句）时是什么情绪？',
        en: 'How does Anna feel when she first points out the cloth on the fridge (line 1)?',
      },
      { a: E.happiness, b: E.anger, c: E.sadness, d: E.boredom },
      'b',
      {
        zh: '愤怒：嗓音又高又紧，用力、发硬，重读的字像砸出来一样。',
        en: 'Anger: a high, strained, forceful voice with hard attacks; the stressed words are hammered out.',
      },
      20,
    ),
    single(
      'q2',
      {
        zh: '安娜提醒米娅星期三要交房，本怎么回应（第4句）？',
        en: 'How does Ben answer when Anna reminds him that Mia hands the room back on Wednesday (line 4)?',
      },
      { a: E.anger, b: E.fear, c: E.boredom, d: E.happiness },
      'c',
      {
        zh: '厌倦：音调低而平，有气无力，几乎没有起伏——他根本不当回事。',
        en: 'Boredom: low and flat, with no energy and almost no melody. He does not take it seriously.',
      },
      20,
    ),
    multiple(
      'q3',
      {
        zh: '本在这场戏里表现出了哪些情绪？（多选）',
        en: 'Which emotions does Ben show in this scene? (choose all)',
      },
      { a: E.disgust, b: E.boredom, c: E.fear, d: E.neutral, e: E.sadness },
      ['b', 'c', 'd'],
      {
        zh: '第2句平静（中性），第4句厌倦，第6句恐惧。他没有表现出厌恶或悲伤。',
        en: 'Line 2 is neutral, line 4 bored, line 6 afraid. He shows neither disgust nor sadness.',
      },
      20,
    ),
    single(
      'q4',
      { zh: '第6句里本为什么突然害怕了？', en: 'Why is Ben suddenly afraid in line 6?' },
      {
        a: { zh: '他找不到抹布', en: 'He cannot find the cloth' },
        b: { zh: '安娜哭了', en: 'Anna starts crying' },
        c: { zh: '米娅打来电话', en: 'Mia phones' },
        d: { zh: '他意识到再过七个小时房东就来了', en: 'He realises the landlord arrives in seven hours' },
      },
      'd',
      {
        zh: '“再过七个小时就到时候了”：他的声音一下子比平时高了很多，发紧，几乎卡在一个音高上——这是恐惧的特征。',
        en: '"In seven hours it will be time": his voice jumps far above his usual pitch and goes tight, stuck on almost one note: the marks of fear.',
      },
      20,
    ),
    text(
      'q5',
      {
        zh: '安娜最后一句的情绪和前面不同。是什么情绪？你从她的声音里听出了什么？',
        en: "Anna's last line has a different feeling from her earlier ones. Which feeling, and what in her voice tells you?",
      },
      {
        zh: '高兴（带点幸灾乐祸）：旋律起伏活泼，嗓音清亮、放松，不再是前面那种又高又紧、用力发硬的愤怒。',
        en: 'Happiness (with a touch of glee): a lively, swinging melody and a clear, relaxed voice, instead of the high, strained, hard-edged anger of her earlier lines.',
      },
      20,
    ),
  ],
};
