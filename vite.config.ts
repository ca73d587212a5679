import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', sourcemap: true },
  worker: { format: 'es' },
  // `npm run dev` serves the client with hot reload and sends API calls to `npm start`'s server.
  server: { proxy: { '/api': 'http://127.0.0.1:8080' } },
});
