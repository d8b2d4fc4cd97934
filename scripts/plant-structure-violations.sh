#!/bin/bash
# Plants one violation of each kind the structure rules forbid, in a scratch clone of the committed
# repository, and shows that `npm run lint` refuses each (docs/architecture.md, "The rules npm run lint checks").
# Usage: bash scripts/plant-structure-violations.sh [repository]
set -u
src=${1:-$(git -C "$(dirname "$0")" rev-parse --show-toplevel)}; dir=$(mktemp -d)/clone
rm -rf $dir && git clone -q $src $dir && cp -al $src/node_modules $dir/ && cd $dir
run() { # name, then files to write as path=content pairs via heredoc functions
  name=$1; shift
  "$@"
  if npm run lint >$dir.out 2>&1; then echo "NOT REFUSED: $name"; else echo "refused: $name — $(grep -aE '✗|×' $dir.out | grep -v 'Some errors' | head -1 | cut -c1-150)"; fi
  if [ "$name" = "src/shared importing the server" ]; then node scripts/check-structure.mjs 2>&1 | grep -a '✗' | head -1 | sed 's/^/   and the structure check alone: /'; fi
  git checkout -q . && git clean -qfd src
}
circle() { printf 'import { b } from "./plant-b.ts";\nexport const a = () => b;\n' > src/shared/plant-a.ts; printf 'import { a } from "./plant-a.ts";\nexport const b = () => a;\n' > src/shared/plant-b.ts; }
shared_server() { printf 'export { clock } from "#server/clock.ts";\n' > src/shared/plant.ts; }
client_features() { f=$(ls src/client/features/articles/*.ts* | grep -v test | head -1); t=$(ls src/client/features/tickets/*.ts | grep -v test | head -1); sed -i "1i import \"#client/${t#src/client/}\";" $f; }
server_pair() { printf 'export const x = 1;\n' > src/server/features/departments/plant-x.ts; printf 'export const y = 1;\n' > src/server/features/settings/plant-y.ts; printf 'import { y } from "#server/features/settings/plant-y.ts";\nexport const a = y;\n' > src/server/features/departments/plant-a.ts; printf 'import { x } from "#server/features/departments/plant-x.ts";\nexport const b = x;\n' > src/server/features/settings/plant-b.ts; }
big_file() { { for i in $(seq 1 401); do echo "export const v$i = $i;"; done; } > src/server/plant-big.ts; }
long_function() { { echo "export function long(): number {"; echo "  let n = 0;"; for i in $(seq 1 125); do echo "  n += $i;"; done; echo "  return n;"; echo "}"; } > src/server/plant-long.ts; }
climb() { printf 'import { clock } from "../clock.ts";\nexport const c = clock;\n' > src/server/features/plant-climb.ts; }
run "an import circle" circle
run "src/shared importing the server" shared_server
run "a client feature importing another" client_features
run "two server folders importing each other" server_pair
run "a file over 400 lines" big_file
run "a function over 120 lines" long_function
run "an import climbing with ../" climb
