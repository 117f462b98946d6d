# Stand-in for ESXi (Wirespeed test lab): esxcli, run as `sh esxcli.sh HOST_DIR ARGS...`, answering in ESXi 8.0's format.
# vmnicN and vmkN are this host's mgmt0, eth1, eth2... in that order; the firewall state lives in HOST_DIR.
host_dir=$1
shift
firewall_file="$host_dir/esxi-firewall-enabled"

nics() {
  echo mgmt0
  ls /sys/class/net | grep '^eth[0-9]*$' | sort -t h -k 2 -n
}

sys() { cat "/sys/class/net/$1/$2" 2>/dev/null; }

prefix_to_mask() {
  p=$1
  mask=""
  for i in 1 2 3 4; do
    if [ "$p" -ge 8 ]; then o=255; p=$((p - 8)); else o=$((256 - (1 << (8 - p)))); [ "$p" -eq 0 ] && o=0; p=0; fi
    mask="$mask${mask:+.}$o"
  done
  echo "$mask"
}

case "$*" in
  "network nic list")
    printf '%-6s  %-12s  %-6s  %-12s  %-11s  %5s  %-6s  %-17s  %4s  %s\n' Name "PCI Device" Driver "Admin Status" "Link Status" Speed Duplex "MAC Address" MTU Description
    printf '%-6s  %-12s  %-6s  %-12s  %-11s  %5s  %-6s  %-17s  %4s  %s\n' ------ ------------ ------ ------------ ----------- ----- ------ ----------------- ---- -----------
    i=0
    for n in $(nics); do
      state=$(sys "$n" operstate)
      link=Down; [ "$state" = up ] && link=Up
      duplex=$(sys "$n" duplex); [ "$duplex" = full ] && duplex=Full || duplex=Half
      speed=$(sys "$n" speed); [ -n "$speed" ] && [ "$speed" -gt 0 ] 2>/dev/null || speed=0
      printf '%-6s  %-12s  %-6s  %-12s  %-11s  %5s  %-6s  %-17s  %4s  %s\n' "vmnic$i" "0000:0$i:00.0" veth Up "$link" "$speed" "$duplex" "$(sys "$n" address)" "$(sys "$n" mtu)" "Lab veth $n (stand-in)"
      i=$((i + 1))
    done
    ;;
  "network ip interface ipv4 get")
    printf '%-4s  %-12s  %-13s  %-14s  %-12s  %-11s  %s\n' Name "IPv4 Address" "IPv4 Netmask" "IPv4 Broadcast" "Address Type" Gateway "DHCP DNS"
    printf '%-4s  %-12s  %-13s  %-14s  %-12s  %-11s  %s\n' ---- ------------ ------------- -------------- ------------ ----------- --------
    i=0
    for n in $(nics); do
      cidr=$(ip -o -4 addr show dev "$n" | awk '{print $4; exit}')
      addr=${cidr%/*}
      mask=$(prefix_to_mask "${cidr#*/}")
      bcast=$(ip -o -4 addr show dev "$n" | awk '{for (k = 1; k < NF; k++) if ($k == "brd") {print $(k + 1); exit}}')
      printf '%-4s  %-12s  %-13s  %-14s  %-12s  %-11s  %8s\n' "vmk$i" "$addr" "$mask" "${bcast:-0.0.0.0}" STATIC 0.0.0.0 false
      i=$((i + 1))
    done
    ;;
  "network ip interface list")
    i=0
    for n in $(nics); do
      enabled=false; [ "$(sys "$n" operstate)" = up ] && enabled=true
      printf 'vmk%s\n   Name: vmk%s\n   MAC Address: %s\n   Enabled: %s\n   Portset: vSwitch%s\n   Portgroup: lab-%s\n   Netstack Instance: defaultTcpipStack\n   VDS Name: N/A\n   VDS UUID: N/A\n   VDS Port: N/A\n   VDS Connection: -1\n   Opaque Network ID: N/A\n   Opaque Network Type: N/A\n   External ID: N/A\n   MTU: %s\n   TSO MSS: 65535\n   RXDispQueue Size: 1\n   Port ID: %s\n\n' \
        "$i" "$i" "$(sys "$n" address)" "$enabled" "$i" "$n" "$(sys "$n" mtu)" "$((33554436 + i))"
      i=$((i + 1))
    done
    ;;
  "network firewall get")
    enabled=$(cat "$firewall_file" 2>/dev/null || echo true)
    printf '   Default Action: DROP\n   Enabled: %s\n   Loaded: true\n' "$enabled"
    ;;
  "network firewall set --enabled true") echo true > "$firewall_file" ;;
  "network firewall set --enabled false") echo false > "$firewall_file" ;;
  *)
    echo "Error: Unknown command or namespace $*" >&2
    exit 1
    ;;
esac
