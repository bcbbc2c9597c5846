import { judgeDevice, type DeviceVerdict, type GpuProbe } from '../../core/capability/gpu-probe';

/** The WebGPU probe's result and what it means for this device, probed once at start. */
export class DeviceState {
  probe = $state.raw<GpuProbe | null>(null);
  verdict = $state.raw<DeviceVerdict | null>(null);

  constructor(private readonly runProbe: () => Promise<GpuProbe>) {}

  async check(): Promise<void> {
    const probe = await this.runProbe();
    this.probe = probe;
    this.verdict = judgeDevice(probe);
  }
}
