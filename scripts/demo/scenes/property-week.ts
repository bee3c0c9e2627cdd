/**
 * Film 6, Mandarin (prpo + prpt). A weekly property programme: the host opens with last week's
 * market, the studio guest weighs up whether it is safe. Six short read sentences by the two
 * AISHELL-1 speakers of the line-check set, so the word check has Mandarin lines on a fresh install.
 */
import { multiple, single, text } from './question-helpers';
import type { NarrationScene } from './scene-types';

const HOST = '周扬';
const GUEST = '林晴';
const AISHELL = 'zh/aishell/BAC009';

export const propertyWeek: NarrationScene = {
  id: 'property-week',
  title: '一周楼事',
  titleEn: 'Property Week',
  language: 'zh',
  synopsis: {
    zh: '电视财经栏目《一周楼事》。主持人周扬先说上周的楼市有多热闹，再请研究员林晴判断：楼市现在安全吗？十年以后呢？',
    en: 'The TV finance show "Property Week". The host, Zhou Yang, sums up how busy the housing market was last week, then asks the researcher Lin Qing: is the market safe now, and will it be in ten years?',
  },
  parts: ['prpo', 'prpt'],
  roles: [
    {
      name: HOST,
      voice: 'aishell-S0252',
      description: {
        zh: '节目主持人，播报上周的楼市数据。',
        en: "The show's host; reads out last week's market figures.",
      },
    },
    {
      name: GUEST,
      voice: 'aishell-S0150',
      description: {
        zh: '演播室嘉宾，研究员，用指标判断楼市是否安全。',
        en: 'The studio guest, a researcher who judges from the figures whether the market is safe.',
      },
    },
  ],
  lines: [
    {
      file: `${AISHELL}S0252W0148.wav`,
      speaker: HOST,
      text: '如今的楼市如同好莱坞大片',
      translation: {
        zh: '现在的房地产市场就像一部好莱坞大片，',
        en: 'Today the housing market is like a Hollywood blockbuster,',
      },
    },
    {
      file: `${AISHELL}S0252W0149.wav`,
      speaker: HOST,
      text: '引来前所未有的关注',
      translation: { zh: '受到了从来没有过的关注。', en: 'drawing more attention than ever before.' },
    },
    {
      file: `${AISHELL}S0252W0141.wav`,
      speaker: HOST,
      text: '上周重点城市共开盘二十个项目',
      translation: {
        zh: '上周，重点城市一共有二十个楼盘开始卖房。',
        en: 'Last week twenty projects went on sale in the key cities.',
      },
    },
    {
      file: `${AISHELL}S0150W0137.wav`,
      speaker: GUEST,
      text: '中国现在处于绝对安全位置',
      translation: {
        zh: '中国现在处在完全安全的位置。',
        en: 'China is now in an absolutely safe position.',
      },
    },
    {
      file: `${AISHELL}S0150W0148.wav`,
      speaker: GUEST,
      text: '需求将可能难以支撑房价',
      translation: {
        zh: '（但十年以后）买房的需求可能撑不住房价。',
        en: '(But in ten years) demand may no longer hold prices up.',
      },
    },
    {
      file: `${AISHELL}S0150W0150.wav`,
      speaker: GUEST,
      text: '零零后会成为购房主力',
      translation: {
        zh: '二〇〇〇年以后出生的人会成为买房的主力。',
        en: 'People born after 2000 will become the main home buyers.',
      },
    },
  ],
  questions: [
    single(
      'q1',
      { zh: '主持人把现在的楼市比作什么？', en: 'What does the host compare the housing market to?' },
      {
        a: { zh: '一场足球赛', en: 'A football match' },
        b: { zh: '好莱坞大片', en: 'A Hollywood blockbuster' },
        c: { zh: '过山车', en: 'A roller coaster' },
        d: { zh: '一本小说', en: 'A novel' },
      },
      'b',
      {
        zh: '第1句：“如今的楼市如同好莱坞大片”。“如同”就是“像”。第2句接着说它“引来前所未有的关注”，一句话分成了两行。',
        en: 'Line 1: "如今的楼市如同好莱坞大片", today\'s market is "like" (如同) a Hollywood blockbuster. Line 2 goes on: it draws unprecedented attention. One sentence over two lines.',
      },
      20,
    ),
    single(
      'q2',
      {
        zh: '上周重点城市一共开盘了多少个项目？',
        en: 'How many projects went on sale in the key cities last week?',
      },
      {
        a: { zh: '两个', en: 'Two' },
        b: { zh: '十一个', en: 'Eleven' },
        c: { zh: '二十个', en: 'Twenty' },
        d: { zh: '两千个', en: 'Two thousand' },
      },
      'c',
      {
        zh: '第3句：“上周重点城市共开盘二十个项目”。“共”是“一共”，“开盘”是楼盘开始卖房。',
        en: 'Line 3: "上周重点城市共开盘二十个项目". 共 means "in all", 开盘 means a project opens for sale, 二十 is twenty.',
      },
      20,
    ),
    multiple(
      'q3',
      { zh: '研究员林晴说了哪些话？（多选）', en: 'Which of these does Lin Qing say? (choose all)' },
      {
        a: { zh: '中国现在处于绝对安全位置', en: 'China is now in an absolutely safe position' },
        b: { zh: '房价下个月就会大跌', en: 'Prices will crash next month' },
        c: { zh: '需求将可能难以支撑房价', en: 'Demand may no longer hold prices up' },
        d: { zh: '零零后会成为购房主力', en: 'People born after 2000 will be the main buyers' },
        e: { zh: '现在应该马上买房', en: 'You should buy a flat right now' },
      },
      ['a', 'c', 'd'],
      {
        zh: '第4、5、6句是林晴说的。林晴没有预测下个月的房价，也没有劝人买房。',
        en: 'Lin Qing says lines 4, 5 and 6, predicts nothing for next month and tells no one to buy.',
      },
      20,
    ),
    single(
      'q4',
      { zh: '第6句的“零零后”指的是谁？', en: 'Who are the "零零后" in line 6?' },
      {
        a: { zh: '没有房子的人', en: 'People without a home' },
        b: { zh: '二〇〇〇年以后出生的人', en: 'People born after 2000' },
        c: { zh: '没有收入的人', en: 'People with no income' },
        d: { zh: '二〇〇〇年买房的人', en: 'People who bought a flat in 2000' },
      },
      'b',
      {
        zh: '“零零后”是二〇〇〇年以后出生的一代人（就像“九零后”是九十年代出生的）。林晴说他们会成为“购房主力”，也就是买房的主要人群。',
        en: '零零后 ("post-00s") are the generation born after 2000, as 九零后 are those born in the 1990s. Lin Qing says they will be the 购房主力, the main group of buyers.',
      },
      20,
    ),
    text(
      'q5',
      {
        zh: '林晴先说“中国现在处于绝对安全位置”，又说“需求将可能难以支撑房价”。这矛盾吗？用自己的话说一说。',
        en: 'Lin Qing says China is "in an absolutely safe position", then that "demand may no longer hold prices up". Is that a contradiction? Explain in your own words.',
      },
      {
        zh: '不矛盾：第4句说的是“现在”，第5句说的是更远的将来（十年以后）。现在的指标很安全，但人口结构在变，将来买房的人可能不够多，撑不住房价；第6句说到那时零零后会成为买房的主力。',
        en: 'No: line 4 is about now, line 5 about the future (ten years on). The figures are safe today, but as the population changes there may not be enough buyers later to hold prices up; line 6 says the post-2000 generation will then be the main buyers.',
      },
      20,
    ),
  ],
  credit: 'Voices: AISHELL-1 (Apache-2.0)',
};
