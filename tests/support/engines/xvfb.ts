import { startProcess, type TestProcess } from '../processes';
import { requireBinaries } from './binaries';

export interface Display {
  /** The DISPLAY value, e.g. `:99`. */
  display: string;
  process: TestProcess;
  stop: () => Promise<void>;
}

/**
 * A virtual X screen at kiosk size for WebKitGTK (MiniBrowser has no headless mode). `-displayfd`
 * lets Xvfb pick a free display number and print it, so parallel runs on one machine never collide;
 * no TCP listener. Ends with the test (tests/support/lifeline.mjs) even if the test is killed.
 */
export async function startXvfb(): Promise<Display> {
  const bin = requireBinaries('xvfb');
  const process = await startProcess('Xvfb', bin.xvfb, [
    '-displayfd',
    '1',
    '-screen',
    '0',
    '1920x1200x24',
    '-nolisten',
    'tcp',
  ]);
  const line = await process.waitForLine((l) => /^\d+$/.test(l.trim()), 'its display number');
  return {
    display: `:${line.trim()}`,
    process,
    stop: async () => {
      await process.stop(5_000);
    },
  };
}
