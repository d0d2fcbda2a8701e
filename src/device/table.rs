//! The device table that `simplets devices` prints.

use super::select::DeviceInfo;

/// Column headers of [`devices_table`].
const HEADERS: [&str; 12] = [
    "#",
    "platform",
    "name",
    "type",
    "CUs",
    "MHz",
    "global MiB",
    "local KiB",
    "max alloc MiB",
    "fp64",
    "OpenCL C",
    "driver",
];

/// One row per device, in listing order (the `#` column is what `--device N` takes), with
/// fixed-width columns separated by two spaces and a trailing newline on every line.
pub fn devices_table(list: &[DeviceInfo]) -> String {
    let rows: Vec<[String; 12]> = list
        .iter()
        .enumerate()
        .map(|(k, d)| {
            [
                k.to_string(),
                d.platform_name.clone(),
                d.name.clone(),
                d.device_type.clone(),
                d.compute_units.to_string(),
                d.max_clock_mhz.to_string(),
                (d.global_mem_bytes >> 20).to_string(),
                (d.local_mem_bytes >> 10).to_string(),
                (d.max_alloc_bytes >> 20).to_string(),
                if d.fp64 { "yes" } else { "no" }.to_string(),
                d.opencl_c_version
                    .trim_start_matches("OpenCL C ")
                    .to_string(),
                d.driver_version.clone(),
            ]
        })
        .collect();
    let mut width = HEADERS.map(str::len);
    for row in &rows {
        for (w, cell) in width.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    let header = HEADERS.map(str::to_string);
    for row in std::iter::once(&header).chain(&rows) {
        let cells: Vec<String> = row
            .iter()
            .zip(width)
            .enumerate()
            .map(|(c, (cell, w))| match c {
                // Numbers right-aligned, text left-aligned.
                0 | 4..=8 => format!("{cell:>w$}"),
                _ => format!("{cell:<w$}"),
            })
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::select::DeviceInfo;

    #[test]
    fn one_aligned_row_per_device() {
        let d = DeviceInfo {
            platform_index: 0,
            device_index: 0,
            platform_name: "Portable Computing Language".into(),
            platform_version: "OpenCL 3.0 PoCL".into(),
            name: "cpu-x".into(),
            vendor: "AMD".into(),
            device_type: "CPU".into(),
            compute_units: 2,
            max_clock_mhz: 2450,
            global_mem_bytes: 3 << 30,
            local_mem_bytes: 256 << 10,
            max_alloc_bytes: 1 << 30,
            max_work_group_size: 4096,
            fp64: true,
            opencl_c_version: "OpenCL C 1.2 PoCL".into(),
            driver_version: "5.0".into(),
            extensions: "cl_khr_fp64".into(),
        };
        let gpu = DeviceInfo {
            name: "gpu".into(),
            fp64: false,
            ..d.clone()
        };
        let t = devices_table(&[d, gpu]);
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(lines[0].starts_with("#  platform"), "{t}");
        assert!(
            lines[1].contains("cpu-x") && lines[1].contains(" yes "),
            "{t}"
        );
        assert!(lines[1].contains("3072") && lines[1].contains("256") && lines[1].contains("1024"));
        assert!(
            lines[2].starts_with("1  ") && lines[2].contains(" no "),
            "{t}"
        );
        // Columns line up: `fp64` starts at the same offset in every line.
        let col = lines[0].find("fp64").unwrap();
        assert_eq!(&lines[1][col..col + 3], "yes");
        assert_eq!(&lines[2][col..col + 2], "no");
    }
}
