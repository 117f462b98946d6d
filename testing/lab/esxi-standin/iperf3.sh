# Stand-in for ESXi (Wirespeed test lab): /usr/lib/vmware/vsan/bin/iperf3, run as `sh iperf3.sh SELF ARGS...`.
# Like ESXi's bundled iperf3, it refuses to listen unless it runs from a copy (SELF ending in .copy).
self=$1
shift
case "$self" in
  *.copy) exec /usr/bin/iperf3 "$@" ;;
esac
for arg in "$@"; do
  case "$arg" in
    -s | --server)
      echo "iperf3: error - unable to start listener for connections: Operation not permitted" >&2
      echo "iperf3: exiting" >&2
      exit 1
      ;;
  esac
done
exec /usr/bin/iperf3 "$@"
