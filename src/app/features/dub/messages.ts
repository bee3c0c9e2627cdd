import { lang } from '../../i18n';

/** The dub screen's own strings (Chinese first), kept with the feature so no shared catalogue is edited. */
const zh = {
  title: '配音',
  sceneTake: '整段配音',
  sceneTakeHint: '影片静音播放，倒数后请读出每一句台词',
  retake: '重录这句',
  record: '录这句',
  listen: '听原声',
  stop: '停止',
  countIn: '准备',
  recording: '录音中',
  encoding: '编码中',
  queued: '等待上传',
  uploading: '上传中',
  scored: '已评分',
  failed: '上传失败',
  retry: '重试',
  idle: '未录音',
  attempt1: '第一次',
  attempt2: '第二次',
  play: '回放',
  offlineKept: '网络恢复后会自动上传，录音已保存在本机',
  waitingLogin: '登录后会自动上传',
  retryIn: '{s} 秒后重试',
  noLines: '这部影片没有可配音的台词',
  loading: '正在加载影片…',
  level: '输入音量',
  pitch: '音高',
  next: '查看声音建议',
  incomplete: '录音未完成，请重录',
  micFallback: '当前浏览器使用兼容录音模式',
};
const en: typeof zh = {
  title: 'Dub',
  sceneTake: 'Dub the scene',
  sceneTakeHint: 'The clip plays muted; after the count-in, say every line',
  retake: 'Retake line',
  record: 'Record line',
  listen: 'Hear original',
  stop: 'Stop',
  countIn: 'Get ready',
  recording: 'Recording',
  encoding: 'Encoding',
  queued: 'Waiting to upload',
  uploading: 'Uploading',
  scored: 'Scored',
  failed: 'Upload failed',
  retry: 'Retry',
  idle: 'Not recorded',
  attempt1: 'First',
  attempt2: 'Second',
  play: 'Play back',
  offlineKept: 'Saved on this device; it uploads when the connection is back',
  waitingLogin: 'Uploads after you log in again',
  retryIn: 'retrying in {s} s',
  noLines: 'This film has no lines to dub',
  loading: 'Loading the film…',
  level: 'Input level',
  pitch: 'Pitch',
  next: 'See sound suggestions',
  incomplete: 'Recording cut short, please retake',
  micFallback: 'Recording in compatibility mode in this browser',
};

export type DubMessage = keyof typeof zh;

export function dt(key: DubMessage, vars?: Record<string, string | number>): string {
  const text = (lang.value === 'en' ? en : zh)[key];
  return vars ? text.replace(/\{(\w+)\}/g, (m, k: string) => (k in vars ? String(vars[k]) : m)) : text;
}
