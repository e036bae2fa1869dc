// generate.mjs writes scalars.golden.json: what @stoplight/yaml, the YAML
// reader of the documentation service's tools, makes of each YAML document
// below, and, where docs-publish deliberately reads it otherwise, what we
// make of it and why. A Go test (TestYAMLScalarsAsTheServiceReadsThem, in
// internal/openapi) holds our parser to the table; go test reads the table
// and never runs this script.
//
// To regenerate the table (Node 18 or later, the npm registry reachable):
//
//	dir=$(mktemp -d)
//	npm install --prefix "$dir" @stoplight/yaml@4.3.0
//	node testdata/yaml/generate.mjs "$dir"
//
// The service reads a description with parse(text), default options. Each
// row of the table has:
//
//	yaml     the document, as written
//	service  what the service holds, as JSON (JSON.stringify of the value)
//	js       only where JSON cannot show the value (Infinity, NaN): the
//	         value as JavaScript writes it
//	ours     only where we differ on purpose: the JSON we upload, or
//	error    the error we give (a part of its text), and
//	why      the reason we differ.

import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const VERSION = '4.3.0';

if (process.argv.length !== 3) {
  console.error('usage: node generate.mjs DIR (where npm install --prefix DIR @stoplight/yaml@' + VERSION + ' put it)');
  process.exit(2);
}
const require = createRequire(path.join(path.resolve(process.argv[2]), 'node_modules', 'x.js'));
const pkg = require('@stoplight/yaml/package.json');
if (pkg.version !== VERSION) {
  console.error(`@stoplight/yaml is ${pkg.version}, want ${VERSION}`);
  process.exit(1);
}
const { parse } = require('@stoplight/yaml');

// Reasons, shared by the rows they explain.
const exact = 'integers keep every digit: the service\'s JavaScript rounds integers beyond 2^53';
const literal = 'a float keeps its literal: the same number, written as the author wrote it';
const noJSON = 'JSON cannot hold this number (the service would store null): an error naming the file and line; quote it to keep the text';
const tooLarge = 'a number beyond ±1.8e308 is read by the service as Infinity, which JSON cannot hold (it would store null): an error naming the file and line, as for .inf';
const floatForm = 'a float stays a float: 1. is written 1.0, its JSON form, where the service writes 1';
const foldedTab = 'a folded scalar whose first line starts with a tab starts with that line, as the YAML spec says; the service adds a line break before it';
const leadingBlank = 'a block scalar keeps its leading blank lines, as the YAML spec says; the service drops them';
const tabIndent = 'a tab cannot indent YAML: an error naming the file and line, where the service silently drops the line';
const tags = 'a scalar with an explicit tag follows its tag; the service ignores tags';
const merge = 'merge keys (<<) merge, as YAML 1.1 tools and most editors do; the service keeps << as a key';
const keep = 'keep chomping (+) keeps every final line break, as the YAML spec says; the service drops some';
const indicator = 'an indentation indicator sets the indentation, as the YAML spec says; the service adds a line break at the start';
const sameKey = 'two keys that read as the same text are an error naming both lines; the service silently keeps the last';

const rows = [
  // Literals real descriptions hold (ISBNs, zip codes, PyYAML's output).
  { yaml: 'v: 0553391925' },
  { yaml: 'v: 01234' },
  { yaml: 'v: 1_000' },
  { yaml: 'v: 1_000.5' },
  { yaml: 'v: 0b101' },
  { yaml: 'v: +0x1F' },
  { yaml: 'v: 0O17' },
  { yaml: 'v: 0X1F' },
  { yaml: 'v: .inf', error: 'JSON cannot hold', why: noJSON },
  { yaml: 'v: -.inf', error: 'JSON cannot hold', why: noJSON },
  { yaml: 'v: .nan', error: 'JSON cannot hold', why: noJSON },
  { yaml: 'v: "a\\/b"' },
  { yaml: 'v: 012345678912345678' },

  // Integers.
  { yaml: 'v: 0' },
  { yaml: 'v: -0' },
  { yaml: 'v: +12' },
  { yaml: 'v: 007' },
  { yaml: 'v: -01234' },
  { yaml: 'v: 0x1F' },
  { yaml: 'v: 0x1f' },
  { yaml: 'v: -0x1F' },
  { yaml: 'v: 0o17' },
  { yaml: 'v: 0o18' },
  { yaml: 'v: 0B101' },
  { yaml: 'v: 1__0' },
  { yaml: 'v: 9007199254740992' },
  { yaml: 'v: 9007199254740993', ours: '{"v":9007199254740993}', why: exact },
  { yaml: 'v: -9007199254740993', ours: '{"v":-9007199254740993}', why: exact },
  { yaml: 'v: 123456789012345678901234567890', ours: '{"v":123456789012345678901234567890}', why: exact },
  { yaml: 'v: 0x1FFFFFFFFFFFFFFFF', ours: '{"v":36893488147419103231}', why: exact },

  // Floats.
  { yaml: 'v: 1.50', ours: '{"v":1.50}', why: literal },
  { yaml: 'v: 1e3', ours: '{"v":1e3}', why: literal },
  { yaml: 'v: 1E3', ours: '{"v":1E3}', why: literal },
  { yaml: 'v: 1.0', ours: '{"v":1.0}', why: literal },
  { yaml: 'v: 1.5' },
  { yaml: 'v: 1.', ours: '{"v":1.0}', why: floatForm },
  { yaml: 'v: .5' },
  { yaml: 'v: -.5' },
  { yaml: 'v: +1.5' },
  { yaml: 'v: 0.1' },
  { yaml: 'v: -0.0', ours: '{"v":-0.0}', why: literal },
  { yaml: 'v: 1.5e+3', ours: '{"v":1.5e+3}', why: literal },
  { yaml: 'v: 6.02e23', ours: '{"v":6.02e23}', why: literal },
  { yaml: 'v: 1e-7' },
  { yaml: 'v: 3.14159265358979323846', ours: '{"v":3.14159265358979323846}', why: literal },
  { yaml: 'v: 1e400', error: 'too large', why: tooLarge },
  { yaml: 'v: -1e400', error: 'too large', why: tooLarge },
  { yaml: 'v: 1' + '0'.repeat(400), error: 'too large', why: tooLarge },
  { yaml: 'v: !!float 1e400', error: 'too large', why: tooLarge },
  { yaml: 'v: 1e-400', ours: '{"v":1e-400}', why: literal },
  { yaml: 'v: .Inf', error: 'JSON cannot hold', why: noJSON },
  { yaml: 'v: +.INF', error: 'JSON cannot hold', why: noJSON },
  { yaml: 'v: .NaN', error: 'JSON cannot hold', why: noJSON },
  { yaml: 'v: .inF' },
  { yaml: 'v: 12:30:00' },
  { yaml: 'v: 190:20:30.15' },
  { yaml: 'v: 1:30' },

  // Null and booleans.
  { yaml: 'v: ~' },
  { yaml: 'v: null' },
  { yaml: 'v: Null' },
  { yaml: 'v: NULL' },
  { yaml: 'v: nULL' },
  { yaml: 'v:' },
  { yaml: 'v: true' },
  { yaml: 'v: True' },
  { yaml: 'v: TRUE' },
  { yaml: 'v: tRUE' },
  { yaml: 'v: false' },
  { yaml: 'v: False' },
  { yaml: 'v: yes' },
  { yaml: 'v: no' },
  { yaml: 'v: Yes' },
  { yaml: 'v: NO' },
  { yaml: 'v: on' },
  { yaml: 'v: off' },
  { yaml: 'v: ON' },
  { yaml: 'v: y' },
  { yaml: 'v: n' },
  { yaml: 'v: Y' },
  { yaml: 'v: N' },

  // Dates and other text.
  { yaml: 'v: 2024-05-01' },
  { yaml: 'v: 2001-12-14t21:59:43.10-05:00' },
  { yaml: 'v: 2001-12-14 21:59:43.10 -5' },
  { yaml: 'v: 2002-12-14T00:00:00Z' },
  { yaml: 'v: "123"' },
  { yaml: 'v: \'1.0\'' },
  { yaml: 'v: \'true\'' },
  { yaml: 'v: "~"' },
  { yaml: 'v: hello world' },
  { yaml: 'v: =' },
  { yaml: 'v: <<' },
  { yaml: 'v: it\'s' },
  { yaml: 'v: a # comment' },
  { yaml: 'v: a#b' },

  // Escapes.
  { yaml: 'v: "tab\\there"' },
  { yaml: 'v: "\\x41\\u00e9\\U0001F600"' },
  { yaml: 'v: "\\N\\_\\L\\P"' },
  { yaml: 'v: "\\e\\0\\a\\b\\v\\f"' },
  { yaml: 'v: "\\ "' },
  { yaml: 'v: \'single \\/ stays\'' },
  { yaml: 'v: "multi\n  line"' },
  { yaml: 'v: "one\n\n  two"' },

  // Block scalars.
  { yaml: 'v: |\n  one\n  two\n' },
  { yaml: 'v: |\n\n  x\n', ours: '{"v":"\\nx\\n"}', why: leadingBlank },
  { yaml: 'v: >\n\n  x\n' },
  { yaml: 'v: |-\n  one\n  two\n' },
  { yaml: 'v: |+\n  keep\n\nw: 1\n', ours: '{"v":"keep\\n\\n","w":1}', why: keep },
  { yaml: 'v: |+\n  keep\n', ours: '{"v":"keep\\n"}', why: keep },
  { yaml: 'v: |+\n  keep' },
  { yaml: 'v: >\n  folded\n  text\n\n  para\n' },
  { yaml: 'v: >-\n  folded\n  text\n' },
  { yaml: 'v: >+\n  keep\n\nw: 1\n', ours: '{"v":"keep\\n\\n","w":1}', why: keep },
  { yaml: 'v: >\n  a\n    more\n  b\n' },
  { yaml: 'v: |2\n   x\n', ours: '{"v":" x\\n"}', why: indicator },
  { yaml: 'v: |2-\n   x\n', ours: '{"v":" x"}', why: indicator },
  { yaml: 'v: |\n  \ttab\n' },
  { yaml: 'v: |\n  x\n  \ttab\n' },
  { yaml: 'v: |-\n  \tx\n\n  y\n' },
  { yaml: 'v: |\n  \n  \tx\n', ours: '{"v":"\\n\\tx\\n"}', why: leadingBlank },
  { yaml: 'a:\n  b: |\n    \tx\n' },
  { yaml: 'a:\n  - |\n     \tx\n' },
  { yaml: 'a:\n- b: |+ # code\n    \tx\n', ours: '{"a":[{"b":"\\tx\\n"}]}', why: keep },
  { yaml: '- &c !!str |\n  \tx\n' },
  { yaml: '"k: |": |\n  \tx\n' },
  { yaml: 'v: >\n  \ttab\n  next\n', ours: '{"v":"\\ttab\\nnext\\n"}', why: foldedTab },
  { yaml: 'v: |\n\ttab\n', error: 'tab', why: tabIndent },
  { yaml: 'v: |\n  a \\/ b\n' },

  { yaml: 'v: |\n  a\n\n\nw: 1\n' },
  { yaml: 'v: |-\n  a\n\n\nw: 1\n' },
  { yaml: 'v: >\n  a\n  b\n\n\n  c\n' },
  { yaml: 'v: >\n  a\n\n    b\n  c\n' },
  { yaml: 'v: |\n  a  \n  b\n' },
  { yaml: 'v: >+\n  a\n', ours: '{"v":"a\\n"}', why: keep },
  { yaml: 'v: >+\n  a' },
  { yaml: 'v: |\n  a\n  # not a comment\n' },
  { yaml: 'v: | # comment\n  a\n' },
  { yaml: 'v: |4\n      a\n    b\n', ours: '{"v":"  a\\nb\\n"}', why: indicator },
  { yaml: 'v: |1-\n  a\n', ours: '{"v":" a"}', why: indicator },
  { yaml: 'v: |\r\n  a\r\n  b\r\n' },
  { yaml: 'v: "a\r\n  b"' },
  { yaml: 'v: |+\n\n' },
  { yaml: 'v: |\n' },
  { yaml: 'v: >-\n\n  a\n\n' },
  { yaml: 'v: plain\n  continued\n\n  para' },
  { yaml: 'v: \'single\n\n  quoted\'' },
  // Tags.
  { yaml: 'v: !!str 123', ours: '{"v":"123"}', why: tags },
  { yaml: 'v: !!int "12"', ours: '{"v":12}', why: tags },
  { yaml: 'v: !!float 1' },
  { yaml: 'v: !!str true', ours: '{"v":"true"}', why: tags },

  // Keys: the text of the value they read as.
  { yaml: '200: a' },
  { yaml: '0x1F: a' },
  { yaml: '0o17: a' },
  { yaml: '1.50: a' },
  { yaml: '1e3: a' },
  { yaml: '1e400: a' },
  { yaml: '.inf: a' },
  { yaml: '~: a' },
  { yaml: 'true: a' },
  { yaml: 'yes: a' },
  { yaml: '0553391925: a' },
  { yaml: '9007199254740993: a' },
  { yaml: '"0x1F": a' },
  { yaml: '+1: a\n1.0: b', error: 'reads as "1", as does the key +1 at line 1', why: sameKey },
  { yaml: '"1": a\n1: b', error: 'key 1 reads as "1", as does the key "1" at line 1', why: sameKey },

  // Merge keys.
  { yaml: 'a: &x {p: 1}\nb: {<<: *x, q: 2}', ours: '{"a":{"p":1},"b":{"q":2,"p":1}}', why: merge },
];

// jsText writes a value as JSON does, but with Infinity and NaN as
// JavaScript writes them, for the values JSON cannot show.
function jsText(v) {
  if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
  if (Array.isArray(v)) return '[' + v.map(jsText).join(',') + ']';
  if (v !== null && typeof v === 'object') {
    return '{' + Object.keys(v).map((k) => JSON.stringify(k) + ':' + jsText(v[k])).join(',') + '}';
  }
  return JSON.stringify(v);
}

const seen = new Set();
const lines = rows.map((r) => {
  if (seen.has(r.yaml)) throw new Error(`${JSON.stringify(r.yaml)} is listed twice`);
  seen.add(r.yaml);
  if ((r.ours !== undefined || r.error !== undefined) !== (r.why !== undefined)) {
    throw new Error(`${JSON.stringify(r.yaml)}: a difference needs ours or error, and why`);
  }
  const value = parse(r.yaml);
  const service = JSON.stringify(value);
  let line = `{"yaml":${JSON.stringify(r.yaml)},"service":${service}`;
  if (jsText(value) !== service) line += `,"js":${JSON.stringify(jsText(value))}`;
  if (r.ours !== undefined) {
    JSON.parse(r.ours); // must be JSON
    if (r.ours === service) throw new Error(`${JSON.stringify(r.yaml)}: ours is what the service reads: no difference to mark`);
    line += `,"ours":${r.ours}`;
  }
  if (r.error !== undefined) line += `,"error":${JSON.stringify(r.error)}`;
  if (r.why !== undefined) line += `,"why":${JSON.stringify(r.why)}`;
  return line + '}';
});

const out = path.join(path.dirname(fileURLToPath(import.meta.url)), 'scalars.golden.json');
writeFileSync(out, `{"parser":"@stoplight/yaml ${VERSION}, parse() with default options","rows":[\n${lines.join(',\n')}\n]}\n`);
console.log(`${out}: ${rows.length} rows`);
