#!/usr/bin/env node
// Synthesises the technician alert: a two-tone siren, 16 kHz mono 16-bit PCM WAV,
// written to src/client/public/sounds/technician-alert.wav. The app loops it for up to 15 s at volume 1.
// Run: node scripts/generate-alert-sound.mjs   (deterministic: the same bytes every time)
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const sampleRate = 16_000;
const toneMs = 200;
const tones = [988, 1319]; // B5 and E6: high enough to cut through an office, far below the 8 kHz limit.
const cycles = 4; // 4 × (high, low) = 1.6 s, a seamless loop.
const fadeMs = 8; // Short ramps at each edge so tone changes do not click.
const amplitude = 0.8;

const samplesPerTone = Math.round((sampleRate * toneMs) / 1000);
const fadeSamples = Math.round((sampleRate * fadeMs) / 1000);
const totalSamples = samplesPerTone * tones.length * cycles;
const pcm = new Int16Array(totalSamples);

for (let i = 0; i < totalSamples; i++) {
  const toneIndex = Math.floor(i / samplesPerTone);
  const frequency = tones[toneIndex % tones.length];
  const inTone = i % samplesPerTone;
  const envelope = Math.min(1, inTone / fadeSamples, (samplesPerTone - 1 - inTone) / fadeSamples);
  const t = i / sampleRate;
  // A touch of the third harmonic makes it brighter (more "alarm") than a pure sine.
  const wave = Math.sin(2 * Math.PI * frequency * t) + 0.25 * Math.sin(2 * Math.PI * 3 * frequency * t);
  pcm[i] = Math.round((wave / 1.25) * envelope * amplitude * 32767);
}

const dataBytes = pcm.length * 2;
const header = Buffer.alloc(44);
header.write("RIFF", 0, "ascii");
header.writeUInt32LE(36 + dataBytes, 4);
header.write("WAVE", 8, "ascii");
header.write("fmt ", 12, "ascii");
header.writeUInt32LE(16, 16); // PCM fmt chunk size
header.writeUInt16LE(1, 20); // PCM
header.writeUInt16LE(1, 22); // mono
header.writeUInt32LE(sampleRate, 24);
header.writeUInt32LE(sampleRate * 2, 28); // byte rate
header.writeUInt16LE(2, 32); // block align
header.writeUInt16LE(16, 34); // bits per sample
header.write("data", 36, "ascii");
header.writeUInt32LE(dataBytes, 40);

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const out = path.join(root, "src/client/public/sounds/technician-alert.wav");
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, Buffer.concat([header, Buffer.from(pcm.buffer)]));
console.log(
  `wrote ${path.relative(root, out)}: ${(totalSamples / sampleRate).toFixed(1)} s, ${44 + dataBytes} bytes`,
);
