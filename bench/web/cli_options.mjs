// The command-line option reader of the benchmark scripts (peers.mjs, page.mjs).
// takeOption(argv, '--name', fallback): the value after --name, removed from argv with it, so
// what is left is the positional arguments; the fallback when --name is absent.
export function takeOption(argv, name, fallback) {
  const i = argv.indexOf(name);
  if (i < 0) return fallback;
  const v = argv[i + 1];
  argv.splice(i, 2);
  return v;
}
