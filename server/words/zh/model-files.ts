/** The Mandarin model's files as committed in server/words/zh/model (see its SOURCE.md). */
export const MODEL_FILES = {
  encoder: 'encoder.int8.onnx',
  decoder: 'decoder.onnx',
  joiner: 'joiner.int8.onnx',
  tokens: 'tokens.txt',
} as const;

export const MODEL_DIR = new URL('./model/', import.meta.url);
