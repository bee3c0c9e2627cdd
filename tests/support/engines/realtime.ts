import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import { requireBinaries } from './binaries';

const run = promisify(execFile);

/**
 * The threads a desktop's RealtimeKit runs in real time for the engine journeys' audio: the sound
 * server (PulseAudio asks for it at start), the fake microphone's player and the test's reading of it
 * (paplay and parec stand for a microphone's hardware clock), and Firefox's audio callback and graph
 * threads, which it asks RealtimeKit for over D-Bus. This machine has no D-Bus session and no
 * RealtimeKit: without this, on a loaded machine the audio threads wait for the CPU like any other,
 * Firefox's AudioContext clock fell 0.8–4.8 s behind the page's over a 20 s scene take (load 20–29 on
 * 2 cores) and the microphone's audio reached the take with seconds missing, which no learner's
 * desktop does. WebKitGTK sets its own threads' priority where it may (as root here); its capture
 * thread (`capture-audiosrc`) stays ordinary, as on a desktop. The browser's page, workers and the
 * server under test keep their ordinary priority: the CPU they wait for is the load the journeys are
 * meant to run beside.
 */
const AUDIO_THREADS = /^(pulseaudio|null-sink|paplay|parec|threaded-ml|AudioIP~allback|GraphRunner)$/;

/** SCHED_RR at a low real-time priority, not handed on to threads it starts, as RealtimeKit grants it. */
const PRIORITY = 10;
const SCAN_EVERY_MS = 500;

export interface AudioThreads {
  /** Stops watching; the names of the threads made real-time (each once). */
  stop: () => string[];
}

/**
 * Watches every process this test process started (its descendants) and puts each audio thread
 * (AUDIO_THREADS) into real-time scheduling as it appears. Needs the right to (root, or
 * CAP_SYS_NICE); without it the first refusal is an error naming what is missing.
 */
export function keepAudioThreadsRealtime(): AudioThreads {
  const { chrt } = requireBinaries('chrt');
  const done = new Map<number, string>();
  let refused: Error | null = null;
  let scanning = false;
  const scan = async () => {
    if (scanning || refused) return;
    scanning = true;
    try {
      for (const [tid, name] of audioThreads(descendants(process.pid))) {
        if (done.has(tid)) continue;
        done.set(tid, name);
        await run(chrt, ['--rr', '--reset-on-fork', '-p', String(PRIORITY), String(tid)]).catch(
          (err: Error) => {
            // A thread that ended meanwhile is not a refusal.
            if (fs.existsSync(`/proc/${tid}`)) refused = err;
          },
        );
      }
    } finally {
      scanning = false;
    }
  };
  const timer = setInterval(() => void scan(), SCAN_EVERY_MS);
  void scan();
  return {
    stop: () => {
      clearInterval(timer);
      if (refused)
        throw new Error(
          `the engine journeys run their audio threads in real time, as a desktop's RealtimeKit does, and need root or CAP_SYS_NICE for it: ${refused.message}`,
        );
      return [...new Set(done.values())].sort();
    },
  };
}

/** Every process below `root`, from /proc (each process's parent is field 4 of its stat). */
function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    // The name (field 2) is in parentheses and may hold spaces: the fields after its last ')'.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const list = children.get(ppid) ?? [];
    list.push(Number(entry));
    children.set(ppid, list);
  }
  const found: number[] = [];
  const queue = [...(children.get(root) ?? [])];
  while (queue.length > 0) {
    const pid = queue.shift() as number;
    found.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return found;
}

/** The audio threads (AUDIO_THREADS) of `pids`: thread id and name. */
function audioThreads(pids: readonly number[]): [number, string][] {
  const found: [number, string][] = [];
  for (const pid of pids) {
    let tids: string[];
    try {
      tids = fs.readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      try {
        const name = fs.readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
        if (AUDIO_THREADS.test(name)) found.push([Number(tid), name]);
      } catch {
        // ended meanwhile
      }
    }
  }
  return found;
}
