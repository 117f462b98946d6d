# Stand-in for ESXi (Wirespeed test lab): esxcli, run as `sh esxcli.sh HOST_DIR ARGS...`, answering in ESXi 8.0's format.
# vmnicN and vmkN are this host's mgmt0, eth1, eth2... in that order, vSwitchN (port group lab-<dev>) joins
# them; NIC details come from the device's /sys and ethtool. The firewall state lives in HOST_DIR.
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

# The lab device behind vmnicN (or vmkN): the (N+1)th of nics, or nothing for another name.
nic_of() {
  i=${1#vmnic}
  i=${i#vmk}
  case "$i" in '' | *[!0-9]*) return ;; esac
  nics | sed -n "$((i + 1))p"
}

# ethtool -k's state of one offload ("on"/"off"), or nothing.
offload() { ethtool -k "$1" 2>/dev/null | sed -n "s/^$2: \(on\|off\).*/\1/p"; }

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
  "network vswitch standard list")
    i=0
    for n in $(nics); do
      printf 'vSwitch%s\n   Name: vSwitch%s\n   Class: cswitch\n   Num Ports: 2560\n   Used Ports: 4\n   Configured Ports: 128\n   MTU: %s\n   CDP Status: listen\n   Beacon Enabled: false\n   Beacon Interval: 1\n   Beacon Threshold: 3\n   Beacon Required By: \n   Uplinks: vmnic%s\n   Portgroups: lab-%s\n\n' \
        "$i" "$i" "$(sys "$n" mtu)" "$i" "$n"
      i=$((i + 1))
    done
    ;;
  "network vswitch standard portgroup list")
    # The port groups of the vSwitches above: lab-<dev> on vSwitchN, its one client vmkN, no VLAN.
    w=4
    for n in $(nics); do [ "${#n}" -gt $((w - 4)) ] && w=$((${#n} + 4)); done
    dashes=$(printf '%*s' "$w" '' | tr ' ' -)
    printf "%-${w}s  %-14s  %-14s  %s\n" Name "Virtual Switch" "Active Clients" "VLAN ID"
    printf "%-${w}s  %-14s  %-14s  %s\n" "$dashes" -------------- -------------- -------
    i=0
    for n in $(nics); do
      printf "%-${w}s  %-14s  %14s  %7s\n" "lab-$n" "vSwitch$i" 1 0
      i=$((i + 1))
    done
    ;;
  "network vswitch dvs vmware list")
    # Not a member of any distributed switch: ESXi then prints nothing.
    ;;
  "network nic get -n "*)
    n=$(nic_of "$5")
    if [ -z "$n" ]; then echo "Error: Unable to find NIC $5" >&2; exit 1; fi
    i=${5#vmnic}
    link=Down; [ "$(sys "$n" operstate)" = up ] && link=Up
    detected=false; [ "$link" = Up ] && detected=true
    version=$(ethtool -i "$n" 2>/dev/null | sed -n 's/^version: //p')
    printf '   Advertised Auto Negotiation: false\n   Advertised Link Modes: Auto\n   Auto Negotiation: false\n   Backing DPUId: N/A\n   Cable Type: \n   Current Message Level: 0\n   Driver Info:\n         Bus Info: 0000:0%s:00:0\n         Driver: veth\n         Firmware Version: N/A\n         Version: %s\n   Link Detected: %s\n   Link Status: %s\n   Name: %s\n   PHYAddress: 0\n   Pause Autonegotiate: false\n   Pause RX: false\n   Pause TX: false\n   Supported Ports: \n   Supports Auto Negotiation: false\n   Supports Pause: false\n   Supports Wakeon: false\n   Transceiver: \n   Virtual Address: %s\n   Wakeon: None\n' \
      "$i" "${version:-1.0}" "$detected" "$link" "$5" "$(sys "$n" address)"
    ;;
  "network nic ring current get -n "* | "network nic ring preset get -n "*)
    n=$(nic_of "$7")
    if [ -z "$n" ]; then echo "Error: Unable to find NIC $7" >&2; exit 1; fi
    # ethtool -g's current (or pre-set maximum) RX and TX of the lab device, in esxcli's words.
    block="Current hardware settings:"; prefix=""
    [ "$4" = preset ] && block="Pre-set maximums:" && prefix="Max "
    rings=$(ethtool -g "$n" 2>/dev/null | awk -v b="$block" '$0 == b { on = 1; next } /:$/ { on = 0 } on && ($1 == "RX:" || $1 == "TX:") { print $1, $2 }')
    if [ -z "$rings" ]; then echo "Error: Not supported" >&2; exit 1; fi
    printf '%s\n' "$rings" | while read -r k v; do
      case $k in RX:) printf '   %sRX: %s\n   %sRX Mini: 0\n   %sRX Jumbo: 0\n' "$prefix" "$v" "$prefix" "$prefix" ;; TX:) printf '   %sTX: %s\n' "$prefix" "$v" ;; esac
    done
    ;;
  "network nic stats get -n "*)
    n=$(nic_of "$6")
    if [ -z "$n" ]; then echo "Error: Unable to find NIC $6" >&2; exit 1; fi
    st() { cat "/sys/class/net/$n/statistics/$1" 2>/dev/null || echo 0; }
    printf 'NIC statistics for %s\n   Packets received: %s\n   Packets sent: %s\n   Bytes received: %s\n   Bytes sent: %s\n   Receive packets dropped: %s\n   Transmit packets dropped: %s\n   Total receive errors: %s\n   Total transmit errors: %s\n' \
      "$6" "$(st rx_packets)" "$(st tx_packets)" "$(st rx_bytes)" "$(st tx_bytes)" "$(st rx_dropped)" "$(st tx_dropped)" "$(st rx_errors)" "$(st tx_errors)"
    ;;
  "network nic tso get -n "*)
    n=$(nic_of "$6")
    if [ -z "$n" ]; then echo "Error: Unable to find NIC $6" >&2; exit 1; fi
    printf '%-6s  %s\n%-6s  %s\n%-6s  %s\n' NIC Value ------ ----- "$6" "$(offload "$n" tcp-segmentation-offload)"
    ;;
  "network ip netstack get -N defaultTcpipStack")
    printf 'defaultTcpipStack\n   Key: defaultTcpipStack\n   Name: defaultTcpipStack\n   Enabled: true\n   Max Connections: 11000\n   Current Max Connections: 11000\n   Congestion Control Algorithm: %s\n   IPv6 Enabled: true\n   Current IPv6 Enabled: true\n   State: 4660\n' \
      "$(cat /proc/sys/net/ipv4/tcp_congestion_control)"
    ;;
  "system settings advanced list -o /Net/TcpipDefLROEnabled")
    # ESXi's default: the VMkernel TCP/IP stack's LRO on.
    printf '   Path: /Net/TcpipDefLROEnabled\n   Type: integer\n   Int Value: 1\n   Default Int Value: 1\n   Min Value: 0\n   Max Value: 1\n   String Value: \n   Default String Value: \n   Valid Characters: \n   Description: LRO enabled for TCP/IP\n'
    ;;
  "hardware platform get")
    printf 'Platform Information\n   UUID: 0x57 0x69 0x72 0x65 0x73 0x70 0x65 0x65 0x64 0x00 0x00 0x00 0x00 0x00 0x00 0x00\n   Product Name: Wirespeed lab ESXi stand-in\n   Vendor Name: Wirespeed lab\n   Serial Number: none\n   Enclosure Serial Number: none\n   BIOS Asset Tag: \n   IPMI Supported: false\n'
    ;;
  "hardware cpu global get")
    cpus=$(grep -c '^processor' /proc/cpuinfo)
    printf '   CPU Packages: 1\n   CPU Cores: %s\n   CPU Threads: %s\n   Hyperthreading Active: false\n   Hyperthreading Supported: false\n   Hyperthreading Enabled: false\n   HV Support: 3\n   HV Replay Capable: false\n   HV Replay Disabled Reasons: \n' "$cpus" "$cpus"
    ;;
  "hardware cpu list")
    brand=$(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo | head -n 1)
    i=0
    while [ "$i" -lt "$(grep -c '^processor' /proc/cpuinfo)" ]; do
      printf 'CPU:%s\n   Id: %s\n   Package Id: 0\n   Brand: %s\n   APIC ID: 0x%x\n   Node: 0\n\n' "$i" "$i" "$brand" "$i"
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
