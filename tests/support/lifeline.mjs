// Runs a command for a test and ties its life to the test's: prints `LIFELINE <pid>` (the command's
// own pid, for signals such as kill -9), passes its output through, exits with it, and kills it
// when standard input closes, which happens when the test process ends in any way, even killed.
import { spawn } from 'node:child_process';
import os from 'node:os';

const [command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'] });
process.stdout.write(`LIFELINE ${child.pid}\n`);
child.on('exit', (code, signal) => {
  // A signal exits as a shell reports it, 128 + its number; one no test sends (a crash: SIGSEGV,
  // SIGABRT) is named, so it does not read as a SIGTERM.
  if (signal && !['SIGTERM', 'SIGINT', 'SIGKILL'].includes(signal))
    process.stderr.write(`lifeline: ${command} ${args.join(' ')} ended by ${signal}\n`);
  process.exit(code ?? (signal ? 128 + (os.constants.signals[signal] ?? 15) : 1));
});
child.on('error', (err) => {
  process.stderr.write(`lifeline: ${err.message}\n`);
  process.exit(127);
});
process.stdin.on('end', () => child.kill('SIGKILL'));
process.stdin.resume();
