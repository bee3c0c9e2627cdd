import type { StatementId } from './statements';

/** Every statement in Chinese (the syntax of format.ts). Reviewed as docs/statements.zh.md. */
export const statementsZh: Record<StatementId, string> = {
  'emotion.anger': '愤怒',
  'emotion.boredom': '厌倦',
  'emotion.disgust': '厌恶',
  'emotion.fear': '恐惧',
  'emotion.happiness': '喜悦',
  'emotion.sadness': '悲伤',
  'emotion.neutral': '平静',
  'emotion.unclear': '听不出明显的情绪',
  'area.emotion': '情绪',
  'area.intonation': '语调',
  'area.energy': '轻重',
  'area.timing': '节奏',
  'area.quality': '录音质量',
  'area.words': '台词',

  'take.noSpeech': '没有听到说话，请重录：确认麦克风已打开、离嘴 15–30 厘米，在字幕出现时开口说这句台词。',
  'take.tooQuiet':
    '录音太小声：最响的地方只到音量上限的 {peakPercent, number, ::.#}%。靠近麦克风或调高输入音量再录。',
  'take.clipped':
    '录音有爆音：{clippedPercent, number, ::.0#}% 的声音顶到了上限。离麦克风远一点或调低输入音量。',
  'take.noisy': '背景噪声偏大：你的声音只比噪声响 {snrDb, number, ::.} 分贝。换个安静的地方再录。',
  'take.emotion.moreEnergy':
    '语气不够有力：你的情绪强度 {learner, number, ::.}，{source, select, actor {演员} other {「{target}」通常}}是 {goal, number, ::.}（0 是最平淡，100 是最激动）。重读的词说得更响、更有劲。',
  'take.emotion.lessEnergy':
    '语气太激动了：你的情绪强度 {learner, number, ::.}，{source, select, actor {演员} other {「{target}」通常}}是 {goal, number, ::.}（0 是最平淡，100 是最激动）。放轻、放慢一些。',
  'take.emotion.lands':
    '情绪强度对上了：你的情绪强度 {learner, number, ::.}，{source, select, actor {演员} other {「{target}」通常}}是 {goal, number, ::.}（0 是最平淡，100 是最激动）；{heard}。',
  'take.emotion.notYet':
    '情绪强度对上了，情绪本身还没出来：你的情绪强度 {learner, number, ::.}，{source, select, actor {演员} other {「{target}」通常}}是 {goal, number, ::.}（0 是最平淡，100 是最激动），{source, select, actor {但听起来和演员的情绪还不一样} other {但听起来还不像「{target}」}}；{heard}。别只顾强度，把这种情绪本身演出来。',
  'take.emotion.heard': '听起来像「{heard}」（把握 {confidence, number, ::percent}）',
  'take.emotion.heardName': '听起来像「{heard}」',
  'take.pitch.narrower':
    '音调起伏比演员小：你的高低音相差 {learner, number, ::.0} 个半音，演员 {actor, number, ::.0} 个。把重读词的音调抬高，让句子有起有落。',
  'take.pitch.wider':
    '音调起伏比演员大：你的高低音相差 {learner, number, ::.0} 个半音，演员 {actor, number, ::.0} 个。收一收，别让每个词都上下跳。',
  'take.pitch.flat':
    '音调偏平：你的高低音只相差 {learner, number, ::.0} 个半音。把关键词的音调抬高，让句子有起有落。',
  'take.pitch.ending':
    '句尾：演员的音调{actorDirection, select, rise {上扬} other {下降}} {actorSt, number, ::.0} 个半音，你的{learnerDirection, select, rise {上扬} other {下降}} {learnerSt, number, ::.0} 个半音。跟着原声把最后一个词{actorDirection, select, rise {往上扬} other {往下落}}。',
  'take.pitch.shape':
    '语调的走向和演员不同：对齐后你的音调平均差 {gapSt, number, ::.0} 个半音。先跟着原声哼出旋律，再带上台词。',
  'take.loudness.narrower':
    '轻重不够分明：你的音量起伏 {learner, number, ::.} 分贝，演员 {actor, number, ::.} 分贝。重读词说得更响，其余的词放轻。',
  'take.loudness.wider':
    '音量忽大忽小：你的音量起伏 {learner, number, ::.} 分贝，演员 {actor, number, ::.} 分贝。音量更平稳一些。',
  'take.loudness.flat':
    '轻重不够分明：你的音量起伏只有 {learner, number, ::.} 分贝。重读词说得更响，其余的词放轻。',
  'take.loudness.stress':
    '重音放的位置和演员不同：对齐后你的音量平均差 {gapDb, number, ::.} 分贝。听原声哪几个词最响，把重音放在同样的词上。',
  'take.pace.slower':
    '你读得比演员慢：你用了 {learnerSeconds, number, ::.0} 秒，演员 {actorSeconds, number, ::.0} 秒。说得更连贯，少拖音。',
  'take.pace.faster':
    '你读得比演员快：你用了 {learnerSeconds, number, ::.0} 秒，演员 {actorSeconds, number, ::.0} 秒。放慢一些，给重要的词留出时间。',
  'take.pace.slowAlone': '语速偏慢：每秒 {rate, number, ::.0} 个字。说得连贯一些。',
  'take.pace.fastAlone': '语速偏快：每秒 {rate, number, ::.0} 个字。放慢一点，把字咬清楚。',
  'take.start.late': '开口晚了：比演员晚 {seconds, number, ::.0} 秒。字幕一出现就开始说。',
  'take.start.early': '开口早了：比演员早 {seconds, number, ::.0} 秒。等字幕出现再开始。',
  'take.pauses.missing': '少停顿了：演员在这句的 {at} 处停顿，你少停了 {count} 处。在同样的位置换气停一下。',
  'take.pauses.extra': '多停顿了：你比演员多停了 {count} 次。把这句连起来说。',
  'take.good.melody': '语调贴近原声：对齐后你的音调平均只差 {gapSt, number, ::.0} 个半音。保持这个旋律。',
  'take.good.pace':
    '节奏接近：你用了 {learnerSeconds, number, ::.0} 秒，演员 {actorSeconds, number, ::.0} 秒。',
  'take.good.loudness':
    '轻重到位：你的音量起伏 {learner, number, ::.} 分贝，演员 {actor, number, ::.} 分贝。',
  'take.good.pitchAlone': '句子有旋律感：你的高低音相差 {learner, number, ::.0} 个半音。',
  'take.good.loudnessAlone': '轻重分明：你的音量起伏 {learner, number, ::.} 分贝。',
  'take.deliveryNote': '语调、轻重、节奏衡量的是你和演员说法的相似程度，不是情绪本身。',
  'take.row.noSpeech': '没有听到说话，请重录',
  'melody.versions': '三个版本听一听',
  'melody.actor': '演员原声',
  'melody.take': '你的录音',
  'melody.yours': '你的声音 · 演员的语调',
  'melody.take_too_little_voiced': '这句话有声部分太少，无法合成',
  'melody.actor_too_little_voiced': '演员这句有声部分太少，无法取其语调',
  'melody.watchOption': '用演员的语调',
  'watchDub.seek': '播放位置',
  'take.readCold':
    '还没有听过你平时的声音，所以你的情绪强度是和一般人的声音比较的。做完声音热身或录过几条之后，会和你自己的声音比较。',
  'take.against.typical': '和一般人的声音相比',
  'take.against.own': '和你自己的声音相比',
  'report.arc.follows':
    '情绪起伏跟上了这场戏（{score, number, ::.} 分，满分 100）：一句接一句，你的情绪强度随演员一起起落，每句都和你自己的声音比较。',
  'report.arc.against':
    '情绪起伏没有跟上这场戏（{score, number, ::.} 分，满分 100）：一句接一句，你的情绪强度变化和演员不同。演员加强的地方，你也加强。',

  'warmup.title': '声音热身',
  'warmup.why':
    '用平时的声音读下面这句话（几秒钟）。之后你的头几条录音会和你自己的声音比较，而不是和一般人的声音比较。可以跳过：跳过后，头几条录音和一般人的声音比较。',
  'warmup.line': '今天我来读几句电影台词，说得平静又清楚。',
  'warmup.record': '录制热身',
  'warmup.stop': '停止',
  'warmup.skip': '跳过',
  'warmup.saving': '正在听…',
  'warmup.done': '谢谢：你的头几条录音会和你自己的声音比较。',
  'warmup.skipped': '已跳过：头几条录音和一般人的声音比较。',
  'warmup.retry': '{reason}请重新录制或跳过。',
  'warmup.reason.noSpeech': '录音里没有听到声音。',
  'warmup.reason.other': '这段录音无法使用。',
  'warmup.failed': '热身录音没有发送成功。请重新录制或跳过。',

  'suggest.line': '{topic}：{text}',
  'topic.overall': '总评',
  'topic.range': '音调起伏',
  'topic.melody': '语调',
  'topic.energy': '轻重',
  'topic.pace': '节奏',
  'topic.emotion': '情绪',
  'topic.progress': '进步',
  'topic.practice': '下一步练习',
  'suggest.none': '这部影片的 {totalLines} 句台词你还没有配音：先录几句，这里会根据你的录音分析你的声音。',
  'suggest.allSilent': '已录的 {dubbedLines} 句都没有听到说话：检查麦克风后重录，这里才能分析你的声音。',
  'suggest.overallSilent':
    '已配 {dubbedLines}/{totalLines} 句，其中 {silent} 句没有听到说话，请重录；有声的 {scoredLines} 句平均 {average, number, ::.} 分。',
  'suggest.overall': '已配 {scoredLines}/{totalLines} 句，平均 {average, number, ::.} 分。',
  'suggest.range.alone':
    '你每句从最低音到最高音一般相差 {learner, number, ::.0} 个半音，{flat, select, yes {偏平，情绪不容易听出来} other {起伏足够}}。',
  'suggest.range':
    '你每句从最低音到最高音一般相差 {learner, number, ::.0} 个半音，演员 {actor, number, ::.0} 个，{verdict, select, narrower {比演员小，听起来偏平} wider {比演员大，起伏偏夸张} other {和演员相当}}。',
  'suggest.melody.scoreOnly': '语调分平均 {score, number, ::.} 分。',
  'suggest.melody':
    '对齐原声后你的音调平均差 {gapSt, number, ::.0} 个半音，语调分平均 {score, number, ::.} 分{withEnds, plural, =0 {} other {{ends, plural, =0 {；{withEnds} 句的句尾升降都和演员一致} other {；{withEnds} 句里有 {ends} 句句尾的升降和演员相反}}}}。',
  'suggest.energy.alone':
    '你每句最响和最轻的地方一般相差 {learner, number, ::.} 分贝，轻重分平均 {score, number, ::.} 分。',
  'suggest.energy':
    '你每句最响和最轻的地方一般相差 {learner, number, ::.} 分贝，演员 {actor, number, ::.} 分贝，{verdict, select, narrower {轻重不如演员分明} wider {音量起伏比演员大} other {轻重和演员接近}}（轻重分平均 {score, number, ::.} 分）。',
  'suggest.pace':
    '你说一句平均用了演员 {ratio, number, ::.0#} 倍的时间，{verdict, select, slower {比演员慢} faster {比演员快} other {和演员基本一致}}。',
  'suggest.emotion':
    '{targeted} 句中有 {passed} 句情绪分达到 {pass}（{rate, number, ::percent}）{gaps, select, yes {；情绪强度和目标相比 {near} 句接近、{weak} 句偏弱、{strong} 句偏强} other {}}。{slip}',
  'suggest.emotion.slip': '清楚听出的偏差：该「{target}」的句子听起来像「{heard}」（{count} 句）。',
  'suggest.progress.none': '还没有重录的句子；挑一句分数最低的再录一次，对比两次的变化。',
  'suggest.progress':
    '{lines} 句重录后总分{direction, select, same {平均没有变化} other {平均 {change, number, ::+.0} 分}}{better, select, yes {，提高最多的是{area}（+{areaChange, number, ::.0}）} other {，各项都没有提高，重录前先听一遍原声}}。',
  'suggest.practice': '{area}（平均 {average, number, ::.} 分，是你最弱的一项）——{exercise}{example}',
  'suggest.practice.example': '例如第 {index} 句「{text}」：{tip}',
  'exercise.emotion': '每句录音前先说出这句的情绪，再夸张地演一遍，然后收回到自然的程度。',
  'exercise.intonation': '先跟着原声只哼旋律不说词，找准哪里升、哪里降，再带上台词。',
  'exercise.energy': '圈出每句最重要的一两个词，把它们说得明显更响，其余词放轻。',
  'exercise.timing': '跟着原声同时说（影子跟读），开口和停顿都对齐演员。',
  'exercise.quality': '在安静的房间录，离麦克风 15–30 厘米，先试音看音量条。',

  'report.answers.high': '理解题正确率 {percent}%，对剧情把握准确。',
  'report.answers.some':
    '{right, plural, one {答对了第 {which} 题（{right}/{scored} 道客观题）：“{prompt}”。} other {答对了第 {which} 题（{right}/{scored} 道客观题），如“{prompt}”。}}',
  'report.answers.gain': '答题正确率比上一次提高了 {gain} 个百分点（{before}% → {after}%）。',
  'report.strongest': '{area}是你最强的一项（平均 {average, number, ::.} 分）。',
  'report.secondTakes': '第二次配音比第一次平均提高 {gain} 分。',
  'report.emotionMatch': '听得出情绪的台词中，{percent}% 与目标情绪一致。',
  'report.practice.area': '下一步重点练习{area}（平均 {average, number, ::.} 分）：{how}',
  'report.practice.question': '重看影片，再想想第 {index} 题：“{prompt}”',
  'practice.emotion': '先说出这句台词想表达的情绪，再放大它：让情绪体现在语速、音量和音高上。',
  'practice.intonation': '跟着原声哼出句子的旋律，注意重音处的音高变化，再带上台词重说一遍。',
  'practice.energy': '加强重读词的音量对比，让轻重更分明，但避免喊破音。',
  'practice.timing': '看着字幕时间轴开口，按原声的停顿位置断句，保持与画面同步。',
  'practice.quality': '在安静的环境录音，嘴离麦克风约一拳距离，避免声音过小或爆音。',

  'h5.reportTitle': '{film} · 训练报告',
  'h5.part': '{part, select, prpo {第一部分} other {第二部分}}',
  'h5.learner': '学员',
  'h5.date': '日期',
  'h5.timeSpent': '用时',
  'h5.duration': '{minutes} 分 {seconds} 秒',
  'h5.answers': '答题得分',
  'h5.notScored': '主观题 · 不计分',
  'h5.notAnswered': '本次训练还没有答题',
  'h5.dubbing': '配音 · 已评分 {scored}/{total} 句',
  'h5.secondTakes':
    '{direction, select, same {第二次与第一次平均持平，没有变化} other {第二次比第一次平均 {change} 分}}',
  'h5.emotionMatch': '情绪对上（听得出情绪的台词中）{percent}%',
  'h5.emotionAverage': '情绪平均 {average} 分',
  'h5.silentLines': '{silent} 句没有听到说话，请重录',
  'h5.recording': '录音',
  'h5.myDub': '我的配音',
  'h5.bestLine': '进步最大的一句（第 {line} 句），三个版本',
  'h5.dubRendering': '配音视频生成中，请稍后刷新',
  'h5.dubFailed': '配音视频生成失败',
  'h5.dubQueueFull': '排队生成的配音视频太多，请稍后再打开这份报告',
  'h5.strengths': '亮点',
  'h5.practiceNext': '下一步练习',
  'h5.expired.title': '链接已过期',
  'h5.expired.body': '请让对方重新分享报告。',
  'h5.invalid.title': '链接无效',
  'h5.invalid.body': '链接不完整或已被修改。',
  'h5.gone.title': '报告不存在',
  'h5.gone.body': '这份报告已经不存在了。',
  'h5.revoked.title': '分享已停止',
  'h5.revoked.body': '分享者已停止分享这份报告。',
  'h5.videoMissing.title': '配音视频还没有生成',
  'h5.videoMissing.body': '请稍后再打开。',

  'qr.title': '确认登录',
  'qr.heading': '确认登录电脑端',
  'qr.explain':
    '显示这个二维码的电脑正在等待登录{product}。你在这里确认后，它就会登录你的账号：密码只在你的手机上输入，不必在公用屏幕上输入。',
  'qr.signInAs': '将以 {nickname}（{account}）登录电脑端',
  'qr.account': '账号',
  'qr.password': '密码',
  'qr.confirm': '确认登录',
  'qr.cancel': '取消',
  'qr.invalid': '二维码无效，请在电脑上刷新',
  'qr.expired': '二维码已过期，请在电脑上刷新',
  'qr.wasCancelled': '已取消本次登录',
  'qr.wasConfirmed': '本次登录已确认',
  'qr.confirmed': '已确认，请回到电脑继续',
  'qr.cancelled': '已取消本次登录',
  'qr.keepSignedIn': '在这台手机上保持登录（否则电脑端退出时一起退出）',
  'qr.endsWithComputer': '电脑端退出时，这台手机也会退出。',
  'qr.notYou': '不是你？在这台手机上退出',
  'qr.signOutEverywhere': '退出所有设备',

  'words.subScore': '台词 {score}',
  'words.suggestHeading': '这几句的词还要再练',
  'words.suggestLine': '第 {index} 句',
  'words.summary':
    '{missedCount, plural, =0 {{total} 个词都说出来了} other {说出了 {said}/{total} 个词，漏了：{missed}}}{offCount, plural, =0 {} other {；没说清楚的词：{off}}}',
  'words.otherLine': '没有听出这句台词，请照着台词说',
  'words.noneClear':
    '{total, plural, one {这个词还没说清楚，请照着台词说} other {# 个词都还没说清楚，请照着台词一个一个说清楚}}',
  'words.notChecked.language':
    '{language, select, de {德语台词} pl {波兰语台词} fr {法语台词} es {西班牙语台词} it {意大利语台词} ja {日语台词} ko {韩语台词} ru {俄语台词} none {这部影片没有注明台词的语言，} other {这种语言的台词}}暂不检查词句，只评语气',
  'words.notChecked.engine':
    '这台设备还没装好{language, select, en {英语} zh {中文} other {}}词句检查，只评语气',
  'words.notChecked.failed': '这次没能检查词句，本句只评语气',
  'words.notChecked.noText': '这句台词没有要检查的词，只评语气',
  'words.missed': '（漏说）',
  'words.off': '（没说清楚）',
  'words.play': '先听演员再听你：{word}',
};
