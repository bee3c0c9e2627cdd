import type { FilmDetail, FilmSummary, Report, SaveQuestionRecordData } from '../../../src/api/contract';

const L = (zh: string, en: string) => ({ zh, en });

export const film: FilmSummary = {
  id: 'film-1',
  title: '奶奶的房子',
  titleEn: "Grandma's Flat",
  poster: '/media/film-1/poster.jpg',
  durationMs: 21_000,
  parts: ['prpo', 'prpt'],
  lineCount: 2,
  questionCount: 3,
  language: 'de',
  progress: {
    answered: true,
    bestScore: 80,
    dubbedLines: 1,
    totalLines: 2,
    lastActivityAt: '2026-11-21T10:00:00Z',
  },
};

export const detail: FilmDetail = {
  ...film,
  synopsis: L('姐弟俩在收拾奶奶的厨房。', 'Two siblings clear out their grandmother’s kitchen.'),
  video: '/media/film-1/clip.mp4',
  subtitlesTrack: '/media/film-1/clip.vtt',
  background: null,
  roles: [{ name: 'Eva', description: L('姐姐', 'the sister') }],
  subtitlesList: [
    {
      id: 's1',
      index: 1,
      startTime: '00:01',
      endTime: '00:03',
      startMs: 1000,
      endMs: 3000,
      text: 'Der Lappen liegt auf dem Eisschrank.',
      translation: L('抹布在冰箱上放着。', 'The rag is on the fridge.'),
      speaker: 'Max',
      targetEmotion: 'neutral',
      referenceAudio: '/media/film-1/s1.wav',
    },
    {
      id: 's2',
      index: 2,
      startTime: '00:03',
      endTime: '00:06',
      startMs: 3000,
      endMs: 6000,
      text: 'In sieben Stunden wird es soweit sein.',
      translation: L('再过七个小时就到时候了。', 'In seven hours it will be time.'),
      speaker: 'Eva',
      targetEmotion: 'sadness',
      referenceAudio: '/media/film-1/s2.wav',
    },
  ],
  questions: [
    {
      id: 'q1',
      kind: 'single',
      prompt: L('马克斯说话时是什么情绪？', 'How does Max feel?'),
      options: [
        { id: 'a', label: L('平静', 'Calm') },
        { id: 'b', label: L('愤怒', 'Angry') },
      ],
      required: true,
      points: 10,
    },
    {
      id: 'q2',
      kind: 'multiple',
      prompt: L('伊娃表现出哪些情绪？', 'Which feelings does Eva show?'),
      options: [
        { id: 'a', label: L('悲伤', 'Sad') },
        { id: 'b', label: L('喜悦', 'Happy') },
        { id: 'c', label: L('恐惧', 'Afraid') },
      ],
      required: true,
      points: 10,
    },
    {
      id: 'q3',
      kind: 'text',
      prompt: L('你会怎么说这句话？', 'How would you say this line?'),
      options: [],
      required: false,
      points: 0,
    },
  ],
};

export const saved: SaveQuestionRecordData = {
  recordId: 'rec-9',
  part: 'prpo',
  filmId: 'film-1',
  score: 10,
  maxScore: 20,
  percent: 50,
  results: [
    {
      questionId: 'q1',
      correct: true,
      score: 10,
      points: 10,
      answer: 'a',
      correctAnswer: ['a'],
      explanation: L('他的语调很平。', 'His pitch stays flat.'),
    },
    {
      questionId: 'q2',
      correct: false,
      score: 0,
      points: 10,
      answer: ['b'],
      correctAnswer: ['a', 'c'],
      explanation: L('她的声音在发抖。', 'Her voice trembles.'),
    },
    {
      questionId: 'q3',
      correct: null,
      score: 0,
      points: 0,
      answer: '轻一点',
      correctAnswer: null,
      explanation: L('', ''),
    },
  ],
};

const attempt = (overall: number, detected: 'neutral' | 'sadness') => ({
  overall,
  scores: { emotion: overall, intonation: 70, energy: 60, timing: 80, quality: 90 },
  detected,
  arousal: 0.2,
  valence: -0.1,
  audioUrl: '/media/takes/t.wav',
  createdAt: '2026-11-21T10:05:00Z',
});

export const prptReport: Report = {
  id: 'rec-7',
  part: 'prpt',
  film: { id: 'film-1', title: '奶奶的房子', titleEn: "Grandma's Flat", poster: '/media/film-1/poster.jpg' },
  learner: { nickname: '演示学员' },
  createdAt: '2026-11-21T10:00:00Z',
  durationMs: 125_000,
  answers: {
    score: 10,
    maxScore: 20,
    percent: 50,
    items: saved.results.map((r, i) => ({
      ...r,
      prompt: detail.questions[i].prompt,
      kind: detail.questions[i].kind,
    })),
  },
  dubbing: {
    lines: [
      {
        subtitlesId: 's1',
        index: 1,
        text: 'Der Lappen liegt auf dem Eisschrank.',
        translation: L('抹布在冰箱上放着。', 'The rag is on the fridge.'),
        speaker: 'Max',
        targetEmotion: 'neutral',
        actor: { detected: 'neutral', arousal: 0.1, valence: 0 },
        first: attempt(62, 'sadness'),
        second: attempt(74, 'neutral'),
      },
      {
        subtitlesId: 's2',
        index: 2,
        text: 'In sieben Stunden wird es soweit sein.',
        translation: L('再过七个小时就到时候了。', 'In seven hours it will be time.'),
        speaker: 'Eva',
        targetEmotion: 'sadness',
        actor: { detected: 'sadness', arousal: -0.3, valence: -0.5 },
        first: null,
        second: null,
      },
    ],
    scoredLines: 1,
    average: 74,
    improvement: 12,
    emotionMatchRate: 1,
  },
  strengths: [L('语调起伏和演员接近', 'Your melody follows the actor’s')],
  practice: L('重录第 2 句，先哼旋律。', 'Retake line 2; hum the melody first.'),
};
