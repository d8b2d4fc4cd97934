// Catalogues compiled on import by @lingui/vite-plugin (decision 038).
declare module "*.po" {
  import type { Messages } from "@lingui/core";
  export const messages: Messages;
}
