"""Run every benchmark: `python benchmarks/run_all.py [validate-limit]`."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import bench_browser
import bench_cross
import bench_difficulty
import bench_distance
import bench_mdp
import bench_model_agent
import bench_report
import bench_runner
import bench_validate
import bench_viewer

if __name__ == "__main__":
    bench_mdp.main()
    bench_browser.main()
    bench_model_agent.main()
    bench_distance.main()
    bench_difficulty.main()
    bench_report.main()
    bench_runner.main()
    bench_viewer.main()
    bench_cross.main()
    bench_validate.main(int(sys.argv[1]) if len(sys.argv) > 1 else None)
