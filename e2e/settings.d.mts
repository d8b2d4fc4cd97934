export function e2eSettings(): {
  port: number;
  baseURL: string;
  dataDir: string;
  adminKey: string;
  oidcPort: number;
  controlPort: number;
  inboundPort: number;
  inboundAddress: string;
};
