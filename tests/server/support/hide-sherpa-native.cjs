// Preload for a child process: makes the sherpa-onnx native library unfindable, as on a machine where
// npm skipped the runtime's optional per-platform package (tests/server/words-zh-missing.test.ts).
const Module = require('node:module');
const resolve = Module._resolveFilename;
Module._resolveFilename = function hideSherpaNative(request, ...rest) {
  if (/sherpa-onnx\.node$|sherpa-onnx-(linux|darwin|win)-/.test(request)) {
    const err = new Error(`Cannot find module '${request}'`);
    err.code = 'MODULE_NOT_FOUND';
    throw err;
  }
  return resolve.call(this, request, ...rest);
};
