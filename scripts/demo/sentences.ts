/**
 * EmoDB's ten sentences (text codes from the file names) with faithful Chinese and English
 * translations. The German text is what the srt cues show; scenes may override a translation
 * when the scene makes "das"/"sie"/"ihm" concrete.
 */
import type { Localized } from '../../src/api/contract';

export interface Sentence {
  german: string;
  translation: Localized;
}

export const SENTENCES: Readonly<Record<string, Sentence>> = {
  a01: {
    german: 'Der Lappen liegt auf dem Eisschrank.',
    translation: { zh: '抹布在冰箱上放着。', en: 'The cloth is lying on the fridge.' },
  },
  a02: {
    german: 'Das will sie am Mittwoch abgeben.',
    translation: { zh: '她想在星期三把它交上去。', en: 'She wants to hand that in on Wednesday.' },
  },
  a04: {
    german: 'Heute abend könnte ich es ihm sagen.',
    translation: { zh: '今天晚上我可以把这事告诉他。', en: 'I could tell him tonight.' },
  },
  a05: {
    german: 'Das schwarze Stück Papier befindet sich da oben neben dem Holzstück.',
    translation: {
      zh: '那张黑纸就在上面，挨着那块木头。',
      en: 'The black sheet of paper is up there next to the piece of wood.',
    },
  },
  a07: {
    german: 'In sieben Stunden wird es soweit sein.',
    translation: { zh: '再过七个小时就到时候了。', en: 'In seven hours it will be time.' },
  },
  b01: {
    german: 'Was sind denn das für Tüten, die da unter dem Tisch stehen?',
    translation: { zh: '桌子底下放着的那些袋子是怎么回事？', en: 'What are those bags under the table?' },
  },
  b02: {
    german: 'Sie haben es gerade hochgetragen und jetzt gehen sie wieder runter.',
    translation: {
      zh: '他们刚把它搬上去，现在又下楼去了。',
      en: 'They have just carried it upstairs and now they are going back down.',
    },
  },
  b03: {
    german: 'An den Wochenenden bin ich jetzt immer nach Hause gefahren und habe Agnes besucht.',
    translation: {
      zh: '最近每个周末我都回家去看望阿格妮丝。',
      en: 'At the weekends I have always gone home lately and visited Agnes.',
    },
  },
  b09: {
    german: 'Ich will das eben wegbringen und dann mit Karl was trinken gehen.',
    translation: {
      zh: '我先把这个拿走，然后和卡尔去喝一杯。',
      en: 'I just want to take this away and then go for a drink with Karl.',
    },
  },
  b10: {
    german: 'Die wird auf dem Platz sein, wo wir sie immer hinlegen.',
    translation: { zh: '它会在我们平时放它的地方。', en: 'It will be in the place where we always put it.' },
  },
};
