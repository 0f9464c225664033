import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

// Served under /console/ by `tulia dev` and by CloudFront in AWS.
export default defineConfig({
  base: "/console/",
  plugins: [react()],
  build: {
    outDir: "dist",
    sourcemap: false,
    chunkSizeWarningLimit: 700,
  },
  test: {
    include: ["src/**/*.test.ts"],
    environment: "node",
  },
});
