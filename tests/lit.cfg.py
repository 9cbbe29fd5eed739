# lit configuration for dispatchlab's IR and CLI tests.
import os
import shutil
import subprocess
import lit.formats

config.name = "dispatchlab"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".mlir", ".onnxtxt", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(os.path.dirname(config.dispatchlab_bin_dir), "tests")
config.excludes = ["unit", "bench", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py.in", "inputs"]

# The zoo's largest models take tens of minutes to run (tests/zoo/runs_large.test).
if os.environ.get("DISPATCHLAB_ZOO_FULL"):
    config.available_features.add("zoo-full")
# File modes bind anyone but root; root drops to nobody with setpriv
# (tests/sweep/read_only_db.test).
if os.geteuid() != 0 or shutil.which("setpriv"):
    config.available_features.add("file-modes-bind")
# A tmpfs of its own in a private mount namespace (tests/sweep/full_disk.test).
if shutil.which("unshare") and subprocess.run(
        ["unshare", "-m", "sh", "-c", "mount -t tmpfs -o size=64k none /mnt"],
        capture_output=True).returncode == 0:
    config.available_features.add("private-tmpfs")
config.environment["PATH"] = os.pathsep.join(
    [config.dispatchlab_bin_dir, config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])])
config.substitutions.append(("%src", config.dispatchlab_src_root))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "inputs")))
config.substitutions.append(("%seeds", os.path.join(config.dispatchlab_src_root, "tests", "inputs", "seeds")))
