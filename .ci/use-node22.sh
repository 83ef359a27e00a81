# Sourced by .ci/run: makes `node` (and the npm it runs) a Node 22 or later. The machine's own
# Node when it is recent enough; otherwise Node 22 from the npm registry (the `node` package ships
# the binary), installed into scripts/node22/ and put first on PATH. Returns non-zero if neither works.
node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

if [ "$(node_major)" -lt 22 ]; then
  echo "== Node $(node -v 2>/dev/null || echo 'none') is older than 22: installing Node 22 from the npm registry into scripts/node22/"
  if [ ! -x scripts/node22/node_modules/.bin/node ]; then
    npm ci --prefix scripts/node22 --no-audit --no-fund || return 1
  fi
  PATH="$PWD/scripts/node22/node_modules/.bin:$PATH"
  export PATH
  hash -r
  [ "$(node_major)" -ge 22 ] || return 1
fi
