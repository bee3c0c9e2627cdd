/** Film 2 (prpo + prpt). Two siblings clear out their grandmother's kitchen on her last evening there. */
import { EMOTION_LABELS as E } from '../../../src/audio/scoring/labels';
import { multiple, single, text } from './question-helpers';
import type { SceneDefinition } from './scene-types';

export const grandmasFlat: SceneDefinition = {
  id: 'grandmas-flat',
  title: '奶奶的房子',
  titleEn: "Grandma's Flat",
  synopsis: {
    zh: '姐弟俩在收拾奶奶的厨房。奶奶要搬进养老院，星期三把房子交出去，搬家车七个小时后就到。他们的父亲还不知道这件事，总得有人去告诉他。',
    en: "A sister and brother clear out their grandmother's kitchen. Grandma is moving into a care home and hands over her flat on Wednesday; the removal van comes in seven hours. Their father does not know yet, and someone has to tell him.",
  },
  parts: ['prpo', 'prpt'],
  roles: [
    {
      name: 'Eva',
      emodbSpeaker: '09',
      description: {
        zh: '马克斯的姐姐，做事干脆，见不得弟弟犹豫。',
        en: "Max's older sister; practical, impatient when he hesitates.",
      },
    },
    {
      name: 'Max',
      emodbSpeaker: '03',
      description: {
        zh: '伊娃的弟弟，心软，总想躲开难开口的话。',
        en: "Eva's younger brother; soft-hearted, avoids hard conversations.",
      },
    },
  ],
  lines: [
    { take: '03a01Nc', speaker: 'Max' },
    { take: '09a07Na', speaker: 'Eva' },
    {
      take: '03a02Ta',
      speaker: 'Max',
      translation: { zh: '她打算星期三把它交出去。', en: 'She wants to hand it over on Wednesday.' },
    },
    { take: '09a07Ta', speaker: 'Eva' },
    { take: '03a04Ad', speaker: 'Max' },
    { take: '09a04Wa', speaker: 'Eva' },
    { take: '03a04Fd', speaker: 'Max' },
    { take: '09a01Fa', speaker: 'Eva' },
  ],
  questions: [
    single(
      'q1',
      {
        zh: '马克斯说奶奶星期三要交房时（第3句）是什么情绪？',
        en: 'How does Max feel when he says Grandma hands over the flat on Wednesday (line 3)?',
      },
      { a: E.anger, b: E.sadness, c: E.happiness, d: E.boredom },
      'b',
      {
        zh: '悲伤：音调低，声音沉闷、没有光彩，整句话压得很重。',
        en: 'Sadness: low and subdued, with no brightness in the voice; the whole sentence sounds weighed down.',
      },
      20,
    ),
    single(
      'q2',
      {
        zh: '伊娃两次说“再过七个小时就到时候了”（第2句和第4句），情绪有什么变化？',
        en: 'Eva says "In seven hours it will be time" twice (lines 2 and 4). What changes?',
      },
      {
        a: { zh: '两次都害怕', en: 'Afraid both times' },
        b: { zh: '先愤怒，后高兴', en: 'First angry, then happy' },
        c: { zh: '先平静，后悲伤', en: 'First neutral, then sad' },
        d: { zh: '先悲伤，后平静', en: 'First sad, then neutral' },
      },
      'c',
      {
        zh: '第一次是就事论事的平静语气；第二次她明白了这意味着什么，说得更慢、更沉，旋律发颤，带着哀伤。',
        en: 'The first time she states a fact in an even voice; the second time it sinks in: she speaks more slowly and heavily, with a mournful, wavering melody.',
      },
      20,
    ),
    single(
      'q3',
      { zh: '谁害怕去告诉父亲？在哪一句？', en: 'Who is afraid of telling their father, and in which line?' },
      {
        a: { zh: '伊娃，第2句', en: 'Eva, line 2' },
        b: { zh: '伊娃，第6句', en: 'Eva, line 6' },
        c: { zh: '马克斯，第7句', en: 'Max, line 7' },
        d: { zh: '马克斯，第5句', en: 'Max, line 5' },
      },
      'd',
      {
        zh: '第5句马克斯的声音发紧、比平时高出许多、说得又急又快，这是恐惧；第7句他已经轻松高兴起来了。',
        en: 'In line 5 Max sounds tense, far above his usual pitch and hurried: fear. By line 7 he has cheered up.',
      },
      20,
    ),
    multiple(
      'q4',
      { zh: '伊娃表现出了哪些情绪？（多选）', en: 'Which emotions does Eva show? (choose all)' },
      { a: E.neutral, b: E.sadness, c: E.anger, d: E.happiness, e: E.fear },
      ['a', 'b', 'c', 'd'],
      {
        zh: '第2句平静，第4句悲伤，第6句愤怒，第8句高兴。她没有害怕。',
        en: 'Line 2 neutral, line 4 sad, line 6 angry, line 8 happy. She is never afraid.',
      },
      20,
    ),
    text(
      'q5',
      {
        zh: '第5、6、7句是同一句话“今天晚上我可以把这事告诉他”，用了三种不同的情绪。请描述每一句听起来怎样、说话人感受如何。',
        en: 'Lines 5, 6 and 7 are the same sentence, "I could tell him tonight", in three different feelings. Describe how each one sounds and what the speaker feels.',
      },
      {
        zh: '第5句马克斯害怕：声音紧、高、快。第6句伊娃生气：嗓音高而用力、生硬，重音很重——她受够了弟弟的犹豫。第7句马克斯高兴、如释重负：轻快，旋律起伏大。',
        en: 'Line 5, Max afraid: tight, high and fast. Line 6, Eva angry: high, forceful and hard, strongly stressed; she is fed up with his hesitating. Line 7, Max happy and relieved: light, with a lively, swinging melody.',
      },
      20,
    ),
  ],
};
