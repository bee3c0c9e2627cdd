/** "Watch my dub": the clip with the learner's takes in place of the actor (features/watch-dub). */
const zh = {
  'watchDub.open': '看我的配音',
  'watchDub.title': '我的配音',
  'watchDub.hint': '影片播放时，已配音的台词换成你最近一次的录音，其余台词保留原声',
  'watchDub.play': '播放',
  'watchDub.stop': '停止',
  'watchDub.close': '关闭',
  'watchDub.loading': '正在准备音轨…',
  'watchDub.failed': '音轨加载失败，请检查网络后重试',
  'watchDub.noTakes': '还没有配音的台词：先录几句再来看',
  'watchDub.count': '{n}/{total} 句是你的声音',
  'watchDub.download': '下载配音视频',
  'watchDub.rendering': '配音视频生成中，稍后刷新即可下载',
} as const;

const en = {
  'watchDub.open': 'Watch my dub',
  'watchDub.title': 'My dub',
  'watchDub.hint':
    'The clip plays with your latest take of each dubbed line; lines not dubbed keep the actor',
  'watchDub.play': 'Play',
  'watchDub.stop': 'Stop',
  'watchDub.close': 'Close',
  'watchDub.loading': 'Preparing the sound…',
  'watchDub.failed': 'The sound could not be loaded; check the connection and try again',
  'watchDub.noTakes': 'No line dubbed yet: record a few, then watch',
  'watchDub.count': '{n} of {total} lines in your voice',
  'watchDub.download': 'Download my dubbed clip',
  'watchDub.rendering': 'Your dubbed clip is being made; refresh in a moment to download it',
} as const satisfies Record<keyof typeof zh, string>;

export const watchDubMessages = { zh, en };
