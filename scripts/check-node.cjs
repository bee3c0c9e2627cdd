// Runs before `npm start`, `npm test` and the scripts that open the database (their pre-scripts in
// package.json), on whatever Node the machine has: an older Node aborts with a segmentation fault
// when the SQLite binding loads, with no word of why. So this file is CommonJS in the syntax of
// Node 6, reads the one rule (package.json "engines"), and on an older Node stops with one line: the
// Node found, the Node needed, and the one command that runs the same script on Node 24 (npx fetches
// it from the registry's `node` package).
'use strict';

// biome-ignore lint/style/useNodejsImportProtocol: Node 12 and older have no "node:" specifiers.
const fs = require('fs');
// biome-ignore lint/style/useNodejsImportProtocol: as above.
const path = require('path');

/** The lowest version a range of the form ">=22.12" allows, as [major, minor, patch]. */
function lowest(range) {
  const match = /^\s*>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?\s*$/.exec(range || '');
  if (!match) throw new Error(`package.json "engines.node" should read ">=major.minor", not ${range}`);
  return [Number(match[1]), Number(match[2] || 0), Number(match[3] || 0)];
}

function atLeast(version, least) {
  const have = String(version)
    .replace(/^v/, '')
    .split('.')
    .map((n) => Number(n) || 0);
  for (let i = 0; i < 3; i++) {
    if ((have[i] || 0) !== least[i]) return (have[i] || 0) > least[i];
  }
  return true;
}

/**
 * The line to print for a Node that is too old, or null when `version` satisfies `range`.
 * `script` is the npm script being run (start, test), so the command given is the one to type.
 */
function nodeProblem(version, range, execPath, script) {
  if (atLeast(version, lowest(range))) return null;
  const command = script === 'start' || script === 'test' ? script : `run ${script}`;
  return (
    `Node ${String(version).replace(/^v/, '')} (${execPath}) is too old: this project needs Node ` +
    `${range.replace(/\s+/g, '')} (24 LTS). Run it on Node 24 with: npx -y -p node@24 -- npm ${command}`
  );
}

function main() {
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'));
  // npm names the pre-script running this file in npm_lifecycle_event: "prestart", "pretest".
  const script = (process.env.npm_lifecycle_event || 'prestart').replace(/^pre/, '');
  const problem = nodeProblem(process.versions.node, pkg.engines.node, process.execPath, script);
  if (problem) {
    process.stderr.write(`${problem}\n`);
    process.exit(1);
  }
}

module.exports = { nodeProblem };

if (require.main === module) main();
