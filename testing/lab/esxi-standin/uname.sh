# Stand-in for ESXi (Wirespeed test lab): `uname` as ESXi 8.0 answers it, run as `sh uname.sh SELF ARGS...`.
shift
case "${1:-}" in
  -s | "") echo "VMkernel" ;;
  -r) echo "8.0.2" ;;
  -a) echo "VMkernel $(hostname) 8.0.2 #1 SMP Release build-22380479 Sep  4 2023 15:00:51 x86_64 x86_64 x86_64 ESXi" ;;
  *) exec /bin/uname "$@" ;;
esac
