import { INPUT_RATE, Pcm16Encoder } from './pcm';

/** The worklet that hands each 128-sample block of the microphone to the page. */
const WORKLET = `registerProcessor('adk-pcm-capture', class extends AudioWorkletProcessor {
  process(inputs) { const samples = inputs[0] && inputs[0][0]; if (samples) this.port.postMessage(samples.slice(0)); return true; }
});`;

/** An open microphone: stop it to release the device. */
export interface Capture {
  stop(): Promise<void>;
}

/**
 * Open the microphone and call `onChunk` with each 40 ms of 16 kHz mono PCM16. The audio runs
 * through an AudioWorklet (inlined as a blob module, so the page still loads one script), or a
 * ScriptProcessor where worklets are missing.
 */
export async function startCapture(onChunk: (bytes: Uint8Array) => void): Promise<Capture> {
  const stream = await navigator.mediaDevices.getUserMedia({
    audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true },
  });
  let context: AudioContext;
  try {
    context = new AudioContext({ sampleRate: INPUT_RATE });
  } catch {
    context = new AudioContext();
  }
  const encoder = new Pcm16Encoder(context.sampleRate, onChunk);
  const source = context.createMediaStreamSource(stream);
  let node: AudioNode;
  if (context.audioWorklet) {
    const url = URL.createObjectURL(new Blob([WORKLET], { type: 'text/javascript' }));
    try {
      await context.audioWorklet.addModule(url);
    } finally {
      URL.revokeObjectURL(url);
    }
    const worklet = new AudioWorkletNode(context, 'adk-pcm-capture');
    worklet.port.onmessage = (message: MessageEvent<Float32Array>) => encoder.push(message.data);
    node = worklet;
  } else {
    const processor = context.createScriptProcessor(1024, 1, 1);
    processor.onaudioprocess = (event) => encoder.push(event.inputBuffer.getChannelData(0));
    node = processor;
  }
  source.connect(node);
  // Pulled by the graph without being heard: through a muted gain to the output.
  const mute = context.createGain();
  mute.gain.value = 0;
  node.connect(mute).connect(context.destination);
  return {
    stop: async () => {
      for (const track of stream.getTracks()) track.stop();
      source.disconnect();
      node.disconnect();
      await context.close().catch(() => undefined);
    },
  };
}
