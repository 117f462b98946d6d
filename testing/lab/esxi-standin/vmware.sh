# Stand-in for ESXi (Wirespeed test lab): `vmware` as ESXi 8.0 answers it, run as `sh vmware.sh SELF ARGS...`.
shift
case "${1:-}" in
  -v) echo "VMware ESXi 8.0.2 build-22380479" ;;
  -l) echo "VMware ESXi 8.0 Update 2" ;;
  -vl | -lv) printf 'VMware ESXi 8.0.2 build-22380479\nVMware ESXi 8.0 Update 2\n' ;;
  *) echo "Usage: vmware [-v] [-l]" >&2; exit 1 ;;
esac
