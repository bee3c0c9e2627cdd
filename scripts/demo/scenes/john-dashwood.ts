/**
 * Film 5, English (prpo + prpt). Five consecutive lines of a LibriVox reading of Jane Austen's
 * "Sense and Sensibility", chapter 1: the narrator sizes up John Dashwood. Short, complete lines in
 * everyday words, so a learner can dub them and see the word check on a fresh install.
 */
import { multiple, single, text } from './question-helpers';
import type { NarrationScene } from './scene-types';

const NARRATOR = 'Narrator';
const DIR = 'en/librivox/sense_and_sensibility_01_austen_64kb';

export const johnDashwood: NarrationScene = {
  id: 'john-dashwood',
  title: '约翰·达什伍德先生',
  titleEn: 'Mr John Dashwood',
  language: 'en',
  synopsis: {
    zh: '简·奥斯汀《理智与情感》第一章的朗读。老达什伍德先生临终前嘱托儿子约翰照顾继母和三个同父异母的妹妹，约翰答应了。接下来，旁白不动声色地告诉我们：约翰到底是个什么样的人。',
    en: "A reading from chapter 1 of Jane Austen's Sense and Sensibility. On his deathbed old Mr Dashwood has asked his son John to look after his stepmother and his three half-sisters, and John has promised. Now the narrator quietly tells us what kind of man John really is.",
  },
  parts: ['prpo', 'prpt'],
  roles: [
    {
      name: NARRATOR,
      voice: 'librivox-sense-and-sensibility',
      description: {
        zh: '这段 LibriVox 录音的朗读者，讲述约翰·达什伍德的为人。',
        en: 'The reader of this LibriVox recording, who tells us about John Dashwood.',
      },
    },
  ],
  lines: [
    {
      file: `${DIR}-0870.wav`,
      speaker: NARRATOR,
      text: 'And Mister John Dashwood had then leisure to consider how much there might be prudently in his power to do for them.',
      translation: {
        zh: '于是约翰·达什伍德先生有了空闲，来盘算在谨慎的范围内，他能为她们做多少。',
        en: 'Then Mr John Dashwood had time to work out how much he could sensibly afford to do for them.',
      },
    },
    {
      file: `${DIR}-0880.wav`,
      speaker: NARRATOR,
      text: 'He was not an ill-disposed young man,',
      translation: { zh: '他并不是一个心眼坏的年轻人，', en: 'He was not a bad-natured young man,' },
    },
    {
      file: `${DIR}-0890.wav`,
      speaker: NARRATOR,
      text: 'unless to be rather cold-hearted and rather selfish is to be ill-disposed.',
      translation: {
        zh: '除非有点冷漠、有点自私也算心眼坏。',
        en: 'unless being rather cold and rather selfish counts as bad-natured.',
      },
    },
    {
      file: `${DIR}-0920.wav`,
      speaker: NARRATOR,
      text: 'Had he married a more amiable woman, he might have been made still more respectable than he was;',
      slip: {
        extra: 'a',
        note: 'the reader says "a more a amiable woman"; the subtitle shows Austen\'s "a more amiable woman"',
      },
      translation: {
        zh: '要是他娶了一位更和善的妻子，他本可以变得比现在更体面；',
        en: 'If he had married a kinder woman, she might have made him even more respectable than he was;',
      },
    },
    {
      file: `${DIR}-0930.wav`,
      speaker: NARRATOR,
      text: 'he might even have been made amiable himself.',
      translation: {
        zh: '说不定连他自己也会变得和善起来。',
        en: 'she might even have made him kind himself.',
      },
    },
  ],
  questions: [
    single(
      'q1',
      {
        zh: '第1句里，约翰·达什伍德在盘算什么？',
        en: 'What is John Dashwood working out in line 1?',
      },
      {
        a: {
          zh: '在谨慎的范围内，他能为继母和妹妹们做多少',
          en: 'How much he can prudently do for his stepmother and sisters',
        },
        b: { zh: '去哪里度假', en: 'Where to go on holiday' },
        c: { zh: '该娶谁', en: 'Whom to marry' },
        d: { zh: '怎样把房子卖掉', en: 'How to sell the house' },
      },
      'a',
      {
        zh: '“how much there might be prudently in his power to do for them”：“them”是他答应照顾的继母和妹妹们。“prudently（谨慎地）”这个词已经透露出，他首先想的是别让自己吃亏。',
        en: '"How much there might be prudently in his power to do for them": "them" are the stepmother and sisters he promised to look after. The word "prudently" already shows that he is thinking of his own purse first.',
      },
      20,
    ),
    single(
      'q2',
      { zh: '第2句的“ill-disposed”是什么意思？', en: 'What does "ill-disposed" mean in line 2?' },
      {
        a: { zh: '生病的', en: 'Ill, sick' },
        b: { zh: '心眼坏、对人不怀好意的', en: 'Bad-natured, meaning others harm' },
        c: { zh: '不爱整洁的', en: 'Untidy' },
        d: { zh: '穿着寒酸的', en: 'Poorly dressed' },
      },
      'b',
      {
        zh: '“disposed”指人的性情，“ill-disposed”就是性情不好、对人不怀好意。这里的“ill”不是“生病”的意思。',
        en: '"Disposed" is about a person\'s nature; "ill-disposed" means bad-natured, wishing others harm. "Ill" here does not mean sick.',
      },
      20,
    ),
    multiple(
      'q3',
      {
        zh: '旁白说了或暗示了约翰的哪些特点？（多选）',
        en: 'What does the narrator say or suggest about John? (choose all)',
      },
      {
        a: { zh: '有点冷漠', en: 'Rather cold-hearted' },
        b: { zh: '有点自私', en: 'Rather selfish' },
        c: { zh: '非常慷慨', en: 'Very generous' },
        d: {
          zh: '娶一位更和善的妻子本可以让他更体面',
          en: 'A kinder wife could have made him more respectable',
        },
        e: { zh: '非常勇敢', en: 'Very brave' },
      },
      ['a', 'b', 'd'],
      {
        zh: '第3句说他“rather cold-hearted and rather selfish”（有点冷漠、有点自私），第4句说娶一位更和善的妻子会让他更体面。慷慨和勇敢都没有提到。',
        en: 'Line 3 calls him "rather cold-hearted and rather selfish"; line 4 says a kinder wife would have made him more respectable. Nothing is said about generosity or bravery.',
      },
      20,
    ),
    single(
      'q4',
      {
        zh: '第5句“he might even have been made amiable himself”暗示了什么？',
        en: 'What does line 5, "he might even have been made amiable himself", suggest?',
      },
      {
        a: { zh: '约翰现在并不怎么和善', en: 'John is not very kind as he is' },
        b: { zh: '约翰是个很和善的人', en: 'John is a very kind man' },
        c: { zh: '约翰以后一定会变和善', en: 'John will certainly become kind' },
        d: { zh: '约翰的妻子很和善', en: "John's wife is very kind" },
      },
      'a',
      {
        zh: '“might have been made（本可能被变得）”说的是没有发生的事：要是妻子更好，他“甚至”会变得和善——可见他现在并不和善。第4句也说明他的妻子并不怎么和善。',
        en: '"Might have been made" is about what did not happen: with a better wife he might "even" have become kind, so he is not kind now. Line 4 tells us his wife is not very amiable either.',
      },
      20,
    ),
    text(
      'q5',
      {
        zh: '第2、3句表面上在为约翰说好话。旁白真正想说的是什么？是怎么说出来的？',
        en: 'Lines 2 and 3 seem to speak up for John. What is the narrator really saying, and how?',
      },
      {
        zh: '这是反讽：先说“他并不是心眼坏的年轻人”，马上又加上“除非有点冷漠、有点自私也算心眼坏”。表面上在替他辩护，实际上是在说他冷漠、自私。讽刺在措辞里，所以配音时要把“unless”和两个“rather”读清楚。',
        en: 'It is irony: "he was not an ill-disposed young man" is followed at once by "unless to be rather cold-hearted and rather selfish is to be ill-disposed". It seems to defend him while saying he is cold and selfish. The irony is in the words, so when you dub it, make "unless" and the two "rather"s clear.',
      },
      20,
    ),
  ],
  credit: 'Voice: LibriVox (public domain), via CMU pocketsphinx-testdata',
};
