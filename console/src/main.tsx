import "./styles";

import { MantineProvider, createTheme } from "@mantine/core";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";

import { registerServiceWorker } from "./alerts";
import { AuthProvider } from "./auth";
import { loadConfig } from "./config";
import { startLanguage } from "./i18n";
import { AppRoutes } from "./router";

const theme = createTheme({ primaryColor: "teal", defaultRadius: "md" });
const queries = new QueryClient({
  defaultOptions: { queries: { staleTime: 5_000, retry: 1, refetchOnWindowFocus: true } },
});

const root = createRoot(document.getElementById("root")!);

registerServiceWorker();

Promise.all([loadConfig(), startLanguage()])
  .then(() =>
    root.render(
      <StrictMode>
        <MantineProvider theme={theme}>
          <QueryClientProvider client={queries}>
            <AuthProvider>
              <AppRoutes />
            </AuthProvider>
          </QueryClientProvider>
        </MantineProvider>
      </StrictMode>,
    ),
  )
  .catch((error: unknown) => {
    root.render(<p style={{ padding: 24 }}>The console could not start: {String(error)}</p>);
  });
