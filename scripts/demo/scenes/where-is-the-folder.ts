/** Film 3 (prpo only). Parents hunt for their daughter's application folder the night before it is due. */
import { EMOTION_LABELS as E } from '../../../src/audio/scoring/labels';
import { multiple, single, text } from './question-helpers';
import type { SceneDefinition } from './scene-types';

const handIn = { zh: '她想星期三把它交上去。', en: 'She wants to hand it in on Wednesday.' };

export const whereIsTheFolder: SceneDefinition = {
  id: 'where-is-the-folder',
  title: '文件夹在哪儿？',
  titleEn: "Where's the Folder?",
  synopsis: {
    zh: '星期二深夜。索菲和扬的女儿丽莎星期三一早要交申请材料，可装材料的文件夹不在老地方。索菲心里发慌，扬却不以为然——直到他算清了时间。',
    en: "Late on Tuesday night. Sophie and Jan's daughter Lisa must hand in her application folder first thing on Wednesday, and the folder is not where it should be. Sophie is frightened; Jan is unconcerned, until he does the maths.",
  },
  parts: ['prpo'],
  roles: [
    {
      name: 'Sophie',
      emodbSpeaker: '14',
      description: { zh: '丽莎的妈妈，为截止时间担心。', en: "Lisa's mother; worried about the deadline." },
    },
    {
      name: 'Jan',
      emodbSpeaker: '11',
      description: {
        zh: '丽莎的爸爸，起初很淡定，后来也慌了。',
        en: "Lisa's father; calm at first, then not.",
      },
    },
  ],
  lines: [
    { take: '14b10Ad', speaker: 'Sophie' },
    { take: '11a01Nd', speaker: 'Jan' },
    { take: '14a01Wa', speaker: 'Sophie' },
    { take: '11a02Ld', speaker: 'Jan', translation: handIn },
    { take: '14a02Ab', speaker: 'Sophie', translation: handIn },
    { take: '11a07Ac', speaker: 'Jan' },
    { take: '14a02Fd', speaker: 'Sophie', translation: handIn },
  ],
  questions: [
    single(
      'q1',
      { zh: '索菲和扬在找什么？', en: 'What are Sophie and Jan looking for?' },
      {
        a: { zh: '车钥匙', en: 'The car key' },
        b: { zh: '抹布', en: 'The cloth' },
        c: { zh: '丽莎装申请材料的文件夹', en: "Lisa's application folder" },
        d: { zh: '生日礼物', en: 'A birthday present' },
      },
      'c',
      {
        zh: '简介里说文件夹不在老地方；第1句“它会在我们平时放它的地方”说的就是它。冰箱上只有抹布。',
        en: 'The synopsis says the folder is missing; line 1, "It will be in the place where we always put it", is about it. On the fridge there is only the cloth.',
      },
      20,
    ),
    single(
      'q2',
      {
        zh: '扬说丽莎星期三才交（第4句）时听起来怎样？',
        en: 'How does Jan sound when he says Lisa hands it in on Wednesday (line 4)?',
      },
      { a: E.fear, b: E.boredom, c: E.anger, d: E.sadness },
      'b',
      {
        zh: '厌倦、不以为然：音调低而平，一点也不着急。',
        en: 'Bored and unconcerned: low and flat, without any urgency.',
      },
      20,
    ),
    single(
      'q3',
      {
        zh: '索菲重复扬说的“抹布在冰箱上”（第3句），她是什么情绪？',
        en: "Sophie repeats Jan's words about the cloth on the fridge (line 3). What does she feel?",
      },
      { a: E.neutral, b: E.happiness, c: E.boredom, d: E.anger },
      'd',
      {
        zh: '愤怒：她要的是文件夹，不是抹布。嗓音发硬、用力，重音很重。',
        en: 'Anger: she wants the folder, not the cloth. Her voice is hard and pressed, with heavy stress.',
      },
      20,
    ),
    multiple(
      'q4',
      { zh: '哪几句是带着恐惧说的？（多选）', en: 'Which lines are spoken in fear? (choose all)' },
      {
        a: { zh: '第1句', en: 'Line 1' },
        b: { zh: '第2句', en: 'Line 2' },
        c: { zh: '第5句', en: 'Line 5' },
        d: { zh: '第6句', en: 'Line 6' },
        e: { zh: '第7句', en: 'Line 7' },
      },
      ['a', 'c', 'd'],
      {
        zh: '第1句和第5句是索菲，第6句是扬：声音发紧、音调偏高，几乎卡在很窄的音域里。第2句是平静的，第7句是高兴的。',
        en: 'Lines 1 and 5 (Sophie) and line 6 (Jan): tight, raised voices held in a narrow range of pitch. Line 2 is neutral and line 7 happy.',
      },
      20,
    ),
    text(
      'q5',
      {
        zh: '这场戏是怎么结束的？从索菲的声音里怎么听得出来？',
        en: "How does the scene end, and how can you hear it in Sophie's voice?",
      },
      {
        zh: '文件夹找到了，索菲松了口气、很高兴：同一句“她想星期三把它交上去”，这次旋律起伏很大、轻快活泼，不再像第5句那样发紧、卡在一个音上。',
        en: 'The folder turns up and Sophie is relieved and happy: the same sentence, "She wants to hand it in on Wednesday", now swings up and down, light and lively, instead of the tight, one-note fear of line 5.',
      },
      20,
    ),
  ],
};
