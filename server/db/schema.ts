/*
 * The database as Kysely sees it. Portable across SQLite and PostgreSQL:
 * - ids are text (random UUIDs, or slugs for films);
 * - timestamps are ISO 8601 UTC text (`new Date().toISOString()`), which sorts correctly as text;
 * - JSON is stored as text and parsed in code (no engine-specific JSON types);
 * - booleans are integers 0/1; durations are integer milliseconds.
 */

/** ISO 8601 UTC timestamp text, e.g. 2026-01-01T12:00:00.000Z. */
export type IsoTime = string;
/** JSON serialised to text. */
export type JsonText = string;

export interface UsersTable {
  id: string;
  account: string;
  nickname: string;
  password_hash: string;
  created_at: IsoTime;
}

export interface SessionsTable {
  /** sha256 (hex) of the token; the token itself is never stored. */
  token_hash: string;
  user_id: string;
  created_at: IsoTime;
  expires_at: IsoTime;
  /**
   * web: the web app's; phone: a QR-confirming phone's, ended with the kiosk session it signed in;
   * phone-kept: a phone's the learner chose to keep (ends at its own logout or expiry).
   */
  kind: SessionKind;
  /** On a kiosk session signed in by QR: the phone session (sha256) that ends with it, if any. */
  ends_session_hash: string | null;
}

export type SessionKind = 'web' | 'phone' | 'phone-kept';

export type QrState = 'waiting' | 'scanned' | 'confirmed' | 'cancelled';

export interface QrLoginsTable {
  uuid: string;
  state: QrState;
  user_id: string | null;
  created_at: IsoTime;
  expires_at: IsoTime;
  scanned_at: IsoTime | null;
  confirmed_at: IsoTime | null;
  /** Set when the token was handed to the polling browser: at most once. */
  delivered_at: IsoTime | null;
  /** sha256 (hex) of the pickup key qr_url gave the requesting screen; the token goes only to it. */
  pickup_hash: string | null;
  /** The confirming phone's session (sha256) when it is to end with the kiosk session delivered. */
  phone_session_hash: string | null;
}

/** Failed login counters, one row per key (`account:<name>` or `ip:<address>`), shared by all instances. */
export interface LoginFailuresTable {
  key: string;
  count: number;
  window_started_at: IsoTime;
  locked_until: IsoTime | null;
}

export interface LoginAddressesTable {
  /** The account name as the login limiter keys it (trimmed, lower case). */
  account: string;
  ip: string;
  last_success_at: IsoTime;
}

export interface SettingsTable {
  key: string;
  value: string;
}

/** A run's rendered dubbed video (server/renders/dub-video.ts): one row per run. */
export interface DubRendersTable {
  run_id: string;
  /** sha-256 of what was rendered: the film's media and each line's latest take. */
  signature: string;
  /** queued: waiting in the shared queue; rendering: claimed by an instance (updated_at its heartbeat). */
  status: 'queued' | 'rendering' | 'ready' | 'failed';
  /** The run's learner (the queue's fairness and caps count by learner). */
  user_id: string;
  /** When the current render was asked for (queue order within a learner). */
  queued_at: IsoTime | null;
  /** When an instance last claimed a render of this run (round robin: least recently served learner first). */
  started_at: IsoTime | null;
  /** The rendered mp4 (under the run's media prefix); the previous render's until a new one is ready. */
  media_key: string | null;
  /** Why the render failed (status failed). */
  error: string | null;
  updated_at: IsoTime;
}

export interface FilmsTable {
  id: string;
  title: string;
  title_en: string;
  /** {zh, en} */
  synopsis: JsonText;
  /** ["prpo","prpt"] */
  parts: JsonText;
  /** [{name, description:{zh,en}}] */
  roles: JsonText;
  poster_key: string;
  video_key: string;
  /** WebVTT track of the original lines. */
  track_key: string;
  /** Voice-free background track (m4a); null for films imported before backgrounds existed. */
  background_key: string | null;
  /**
   * The language the lines are spoken in (BCP 47 primary tag, e.g. "en", "zh", "de"); null when the
   * film declares none: its words are not checked (docs/score.md).
   */
  language: string | null;
  duration_ms: number;
  created_at: IsoTime;
  updated_at: IsoTime;
}

export interface SubtitlesTable {
  /** `<filmId>-<index>` so ids stay stable across re-imports. */
  id: string;
  film_id: string;
  idx: number;
  start_ms: number;
  end_ms: number;
  text: string;
  /** {zh, en} */
  translation: JsonText;
  speaker: string;
  target_emotion: string | null;
  reference_audio_key: string;
}

export interface QuestionsTable {
  /** `<filmId>-<questionId>`; the manifest's own id is kept in prompt order via idx. */
  id: string;
  film_id: string;
  idx: number;
  kind: 'single' | 'multiple' | 'text';
  /** {zh, en} */
  prompt: JsonText;
  /** [{id, label:{zh,en}}] */
  options: JsonText;
  /** ["a"] — the answer key, never sent before an answer is saved. */
  answer: JsonText;
  /** {zh, en} */
  explanation: JsonText;
  required: number;
  points: number;
}

export interface QuestionRecordsTable {
  id: string;
  user_id: string;
  film_id: string;
  part: 'prpo' | 'prpt';
  /** [{questionId, value}] as submitted (after validation). */
  answers: JsonText;
  /** QuestionResult[] as scored. */
  results: JsonText;
  score: number;
  max_score: number;
  duration_ms: number | null;
  created_at: IsoTime;
  /** The run these answers belong to (server/takes/runs.ts); set on every row since migration 003. */
  run_id: string | null;
}

/** One scored recording of one line. Written by the AI service. */
export interface TakesTable {
  id: string;
  user_id: string;
  film_id: string;
  subtitle_id: string;
  attempt: number;
  audio_key: string;
  /** SpeechScore JSON (contract `speechScore`). */
  result: JsonText;
  overall: number;
  created_at: IsoTime;
  /** The run this take belongs to (server/takes/runs.ts); set on every row since migration 003. */
  run_id: string | null;
  /** 1 when speech was detected in the take (`result.quality.speechDetected`), 0 when not: no score. Default 1. */
  speech?: number;
}

/** A training run: one pass of a learner through one film in one part (docs/api.md, "Runs"). */
export interface RunsTable {
  id: string;
  user_id: string;
  film_id: string;
  part: 'prpo' | 'prpt';
  started_at: IsoTime;
  /** The run's latest answer or take. */
  updated_at: IsoTime;
  /** Share links of the run issued before this time no longer open (the learner ended them). */
  shares_revoked_at: IsoTime | null;
  /**
   * Lines dubbed and their average by the attempt rule, kept in step with the run's takes
   * (server/takes/runs.ts, `refreshRunDubbing`); a new run has 0 and null.
   */
  dubbed_lines: number;
  dubbing_average: number | null;
}

/**
 * A learner's history of one film in one part, as the film list shows it: kept up to date where
 * runs and answers are written (server/takes/runs.ts), so the list reads one row per film.
 */
export interface FilmProgressTable {
  user_id: string;
  part: 'prpo' | 'prpt';
  film_id: string;
  /** How many runs the learner has of the film in the part. */
  runs: number;
  /** Best score / max_score over every answer (0 when max_score is 0); null before the first answer. */
  best_ratio: number | null;
}

/** Take audio bytes a learner uploaded in one hour (`hour` = ISO time cut to the hour). */
export interface UploadUsageTable {
  user_id: string;
  hour: string;
  bytes: number;
}

/** The AI service's cache of the analysis of the actor's line. */
export interface ReferenceAnalysesTable {
  subtitle_id: string;
  analysis: JsonText;
  created_at: IsoTime;
}

/** The word check of a line's reference audio (server/ai/reference-words.ts), per imported audio. */
export interface ReferenceWordsTable {
  subtitle_id: string;
  audio_key: string;
  language: string | null;
  /** WordCheck (src/api/contract/words.ts). */
  words: JsonText;
  created_at: IsoTime;
}

/** The AI service's running per-learner voice statistics. */
export interface SpeakerStatsTable {
  user_id: string;
  count: number;
  stats: JsonText;
  updated_at: IsoTime;
}

/** A learner's voice warm-up (server/takes/warmup.ts): recorded once, or skipped. */
export interface VoiceWarmupsTable {
  user_id: string;
  status: 'recorded' | 'skipped';
  /** The warm-up's utterance features (a JSON number array); null when skipped. */
  features: JsonText | null;
  created_at: IsoTime;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  qr_logins: QrLoginsTable;
  login_failures: LoginFailuresTable;
  login_addresses: LoginAddressesTable;
  settings: SettingsTable;
  films: FilmsTable;
  subtitles: SubtitlesTable;
  questions: QuestionsTable;
  question_records: QuestionRecordsTable;
  takes: TakesTable;
  runs: RunsTable;
  film_progress: FilmProgressTable;
  upload_usage: UploadUsageTable;
  reference_analyses: ReferenceAnalysesTable;
  reference_words: ReferenceWordsTable;
  speaker_stats: SpeakerStatsTable;
  voice_warmups: VoiceWarmupsTable;
  dub_renders: DubRendersTable;
}
