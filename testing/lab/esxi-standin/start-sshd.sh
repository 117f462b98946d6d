# Stand-in for ESXi (Wirespeed test lab): run as `unshare -m --propagation private sh start-sshd.sh HOST_DIR SSHD_CONFIG SSHD_LOG`.
# Inside that private mount namespace, overlays /usr with the stand-in's vsan iperf3, esxcli, uname, vmware and ping,
# then starts this lab host's sshd there. Nothing is mounted or written outside the namespace but HOST_DIR.
set -eu
standin=$(cd "$(dirname "$0")" && pwd)
host_dir=$1
config=$2
log=$3

root="$host_dir/esxi-root"
mkdir -p "$root"
# A tmpfs of our own: overlay needs upper and work dirs on the same filesystem, and it vanishes with the namespace.
mount -t tmpfs -o mode=0755 wirespeed-esxi-standin "$root"
mkdir -p "$root/upper/lib/vmware/vsan/bin" "$root/upper/local/bin" "$root/work"

# Launchers: tiny scripts that hand over to the stand-in scripts, passing their own path ($0) so the
# iperf3 stand-in knows whether it runs as the original or as iperf3.copy.
launcher() {
  printf '#!/bin/sh\n# Stand-in for ESXi (Wirespeed test lab): see %s/README.md\nexec /bin/sh %s "$0" "$@"\n' "$standin" "$1" > "$2"
  chmod 0755 "$2"
}
launcher "$standin/iperf3.sh" "$root/upper/lib/vmware/vsan/bin/iperf3"
printf '#!/bin/sh\n# Stand-in for ESXi (Wirespeed test lab): see %s/README.md\nexec /bin/sh %s %s "$@"\n' "$standin" "$standin/esxcli.sh" "$host_dir" > "$root/upper/local/bin/esxcli"
chmod 0755 "$root/upper/local/bin/esxcli"
launcher "$standin/uname.sh" "$root/upper/local/bin/uname"
launcher "$standin/vmware.sh" "$root/upper/local/bin/vmware"
# ESXi's ping is BusyBox-like: so is the stand-in's.
printf '#!/bin/sh\n# Stand-in for ESXi (Wirespeed test lab): see %s/README.md\nexec /bin/busybox ping "$@"\n' "$standin" > "$root/upper/local/bin/ping"
chmod 0755 "$root/upper/local/bin/ping"

mount -t overlay wirespeed-esxi-standin -o "lowerdir=/usr,upperdir=$root/upper,workdir=$root/work" /usr
exec /usr/sbin/sshd -f "$config" -E "$log"
